function tidelink_pto(initialize_fn, evaluate_fn, varargin)
%TIDELINK_PTO Serves a Tidelink external force module (protocol v2) from MATLAB or Octave.
%
%   tidelink_pto(@my_initialize, @my_evaluate)
%   tidelink_pto(@my_initialize, @my_evaluate, 'reset', @r, 'commit', @c, 'rollback', @b)
%
%   my_initialize(cfg, announce) -> info struct with fields name, version, n_states
%       cfg: the YAML `config` (a struct); announce: kind, n_inputs, n_outputs, dt, in_names.
%   my_evaluate(t, dt, in) -> out, a vector of n_outputs numbers
%       in: the positional inputs (in(1) displacement, in(2) velocity, ...).
%   reset/commit/rollback: optional handles without arguments.
%
%   State between calls: keep it in a persistent variable of your model file, or in a
%   containers.Map handle created before calling tidelink_pto.
%
%   The port: the host appends `--tidelink-port N` to the command and also sets the
%   environment variable TIDELINK_PORT=N (MATLAB's -batch cannot take extra arguments).
%   The first frame sent is the hello with the token of TIDELINK_PTO_TOKEN, which the host
%   put in this process's environment: the host accepts no other connection.
%
%   Framing: each message is a 4-byte big-endian unsigned length followed by that many bytes
%   of UTF-8 JSON. tidelink_pto_frame_vectors() lists reference frames; pto/matlab/
%   check_framing.py checks that the Python helper produces the same bytes, and
%   tidelink_pto_selftest() checks this file's encoder and decoder against them.

opts = struct('reset', [], 'commit', [], 'rollback', []);
for k = 1:2:numel(varargin)
    opts.(varargin{k}) = varargin{k + 1};
end
port = tidelink_port();
token = getenv('TIDELINK_PTO_TOKEN');
if isempty(token)
    error('tidelink_pto: TIDELINK_PTO_TOKEN is missing: start this module from the MBS solver');
end
if exist('OCTAVE_VERSION', 'builtin') && ~exist('tcpclient')
    % Octave's tcpclient comes with its instrument-control package.
    pkg load instrument-control
end
sock = tcpclient('127.0.0.1', port);
cleanup = onCleanup(@() clear('sock')); %#ok<NASGU>
tidelink_write_frame(sock, struct('op', 'hello', 'protocol', 2, 'token', token));
n_outputs = 1;
while true
    msg = tidelink_read_frame(sock);
    if isempty(msg)
        return; % the host closed the connection
    end
    try
        switch msg.op
            case 'initialize'
                if msg.protocol ~= 2
                    error('protocol %d is not 2', msg.protocol);
                end
                n_outputs = msg.n_outputs;
                announce = rmfield(msg, {'op', 'config'});
                info = initialize_fn(msg.config, announce);
                reply = struct('status', 'ok', 'name', info.name, 'version', info.version, ...
                               'n_states', info.n_states);
            case 'evaluate'
                out = evaluate_fn(msg.t, msg.dt, msg.in(:)');
                if numel(out) ~= n_outputs || any(~isfinite(out))
                    error('evaluate returned %d values (%d expected) or a non-finite one', ...
                          numel(out), n_outputs);
                end
                reply = struct('status', 'ok', 'out', {num2cell(double(out(:)'))});
            case {'reset', 'commit', 'rollback'}
                if ~isempty(opts.(msg.op))
                    opts.(msg.op)();
                end
                reply = struct('status', 'ok');
            case 'shutdown'
                tidelink_write_frame(sock, struct('status', 'ok'));
                return;
            otherwise
                error('unknown op %s', msg.op);
        end
    catch err
        reply = struct('status', 'error', 'message', err.message);
    end
    tidelink_write_frame(sock, reply);
end
end

function port = tidelink_port()
port = [];
if exist('OCTAVE_VERSION', 'builtin')
    args = argv();
    i = find(strcmp(args, '--tidelink-port'), 1);
    if ~isempty(i) && i < numel(args)
        port = str2double(args{i + 1});
    end
end
if isempty(port)
    port = str2double(getenv('TIDELINK_PORT'));
end
if isnan(port)
    error('tidelink_pto: no port (--tidelink-port N or TIDELINK_PORT): start this module from the MBS solver');
end
end

function tidelink_write_frame(sock, msg)
write(sock, tidelink_encode_frame(msg));
end

function msg = tidelink_read_frame(sock)
msg = [];
prefix = read(sock, 4, 'uint8');
if numel(prefix) < 4
    return;
end
n = tidelink_frame_length(prefix);
body = read(sock, n, 'uint8');
msg = jsondecode(native2unicode(uint8(body), 'UTF-8'));
end
