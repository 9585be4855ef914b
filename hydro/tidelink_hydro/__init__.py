"""tidelink_hydro: BEMIO-layout hydrodynamic files generated with Capytaine (run by `tidelink hydro`)."""
