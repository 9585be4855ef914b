function n = tidelink_frame_length(prefix)
%TIDELINK_FRAME_LENGTH The body length of a frame from its 4-byte big-endian prefix.
p = double(prefix(1:4));
n = p(1) * 16777216 + p(2) * 65536 + p(3) * 256 + p(4);
end
