% TIDELINK_OCTAVE Starts a MATLAB-style Tidelink module under GNU Octave.
%
%   octave-cli --no-gui --quiet tidelink_octave.m MODULE [--tidelink-port N]
%
%   MODULE is a function file (e.g. linear_damper_pto.m, or a path to one): its folder and this
%   file's folder are put on the path, then the function is called without arguments. The host
%   appends `--tidelink-port N`, which Octave passes to a script file (argv) but refuses after
%   --eval; that is why modules run under Octave through this script. Model YAML:
%
%     command: [octave-cli, --no-gui, --quiet, pto/matlab/tidelink_octave.m, pto/matlab/linear_damper_pto.m]
%
%   Octave keeps tcpclient in its instrument-control package (Debian: octave-instrument-control),
%   which tidelink_pto loads.
1;
args = argv();
if isempty(args) || strncmp(args{1}, '--', 2)
    error('tidelink_octave: name the module function file first, e.g. tidelink_octave.m linear_damper_pto.m');
end
addpath(fileparts(mfilename('fullpath')));
[folder, module] = fileparts(args{1});
if ~isempty(folder)
    addpath(folder);
end
feval(module);
