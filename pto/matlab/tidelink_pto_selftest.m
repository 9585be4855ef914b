function tidelink_pto_selftest()
%TIDELINK_PTO_SELFTEST Checks the encoder and length decoder against the reference frames.
v = tidelink_pto_frame_vectors();
for k = 1:size(v, 1)
    expected = uint8(sscanf(v{k, 2}, '%2x')');
    got = tidelink_encode_frame(jsondecode(v{k, 1}));
    assert(isequal(got, expected), 'frame %d differs', k);
    assert(tidelink_frame_length(expected(1:4)) == numel(expected) - 4);
end
disp('tidelink_pto_selftest: ok');
end
