function bytes = tidelink_encode_frame(msg)
%TIDELINK_ENCODE_FRAME The frame of a message: 4-byte big-endian length + UTF-8 JSON.
body = unicode2native(jsonencode(msg), 'UTF-8');
n = numel(body);
prefix = uint8([floor(n / 16777216), mod(floor(n / 65536), 256), mod(floor(n / 256), 256), mod(n, 256)]);
bytes = [prefix, uint8(body(:)')];
end
