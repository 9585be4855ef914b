//! The constructor's checks of the solver process (rank, size, communicator) that libprecice
//! makes before it reads the configuration, in its order and words; the native engine runs each
//! participant in one process, so anything parallel is refused here with what to do instead.

use pyo3::prelude::*;

/// The checks of the constructor that come before the configuration (libprecice's order).
pub(crate) fn check_process(rank: i64, size: i64, communicator: Option<&Bound<'_, PyAny>>) -> Result<(), String> {
    if rank < 0 {
        return Err(format!("The solver process index needs to be a non-negative number, not: {rank}. Please check the value given when constructing a preCICE participant."));
    }
    if size < 1 {
        return Err(format!("The solver process size needs to be a positive number, not: {size}. Please check the value given when constructing a preCICE participant."));
    }
    if rank >= size {
        return Err(format!("The solver process index, currently: {rank} needs to be smaller than the solver process size, currently: {size}. Please check the values given when constructing a preCICE participant."));
    }
    if size > 1 {
        return Err(format!(
            "solver_process_size = {size}: the native engine runs each participant in one process (rank 0 of size 1). \
             Run this solver serially, or use pyprecice on a libprecice built with MPI for parallel participants."
        ));
    }
    if let Some(comm) = communicator {
        let ranks = comm.call_method0("Get_size").and_then(|n| n.extract::<i64>());
        match ranks {
            Ok(1) => {}
            Ok(n) => {
                return Err(format!(
                    "the communicator has {n} ranks: the native engine runs each participant in one process. Pass no \
                     communicator (or one of size 1), or use pyprecice on a libprecice built with MPI."
                ))
            }
            Err(_) => {
                return Err(
                    "the communicator argument must be an MPI communicator (an object with Get_size(), such as \
                     mpi4py's MPI.COMM_SELF) of one rank, or None"
                        .to_string(),
                )
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_process;

    #[test]
    fn process_checks_come_in_libprecice_order_and_refuse_parallel_runs() {
        assert!(check_process(-1, 1, None).unwrap_err().contains("non-negative"));
        assert!(check_process(0, 0, None).unwrap_err().contains("positive number"));
        assert!(check_process(2, 2, None).unwrap_err().contains("needs to be smaller than"));
        assert!(check_process(0, 4, None).unwrap_err().contains("one process"));
        assert_eq!(check_process(0, 1, None), Ok(()));
    }
}
