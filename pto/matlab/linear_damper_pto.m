function linear_damper_pto()
%LINEAR_DAMPER_PTO The linear damper F = -c v as a MATLAB module.
%   model YAML: command: [matlab, -batch, "addpath('pto/matlab'); linear_damper_pto"]
%   Octave:     command: [octave-cli, --no-gui, --quiet, pto/matlab/tidelink_octave.m, pto/matlab/linear_damper_pto.m]
c = 1.2e6;
    function info = init(cfg, ~)
        if isfield(cfg, 'damping')
            c = cfg.damping;
        end
        info = struct('name', 'LinearDamperM', 'version', '1.0', 'n_states', 0);
    end
    function out = evaluate(~, ~, in)
        out = -c * in(2);
    end
tidelink_pto(@init, @evaluate);
end
