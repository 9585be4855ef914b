function v = tidelink_pto_frame_vectors()
%TIDELINK_PTO_FRAME_VECTORS Reference frames: JSON text and the bytes of its frame (hex).
%   check_framing.py reads this list and checks the Python helper against it.
v = {
  '{"status":"ok"}', '0000000f7b22737461747573223a226f6b227d'
  '{"status":"ok","name":"M","version":"1.0","n_states":0}', '000000377b22737461747573223a226f6b222c226e616d65223a224d222c2276657273696f6e223a22312e30222c226e5f737461746573223a307d'
};
end
