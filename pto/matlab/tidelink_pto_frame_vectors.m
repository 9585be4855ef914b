function v = tidelink_pto_frame_vectors()
%TIDELINK_PTO_FRAME_VECTORS Reference frames: JSON text and the bytes of its frame (hex).
%   check_framing.py reads this list and checks the Python helper against it.
v = {
  '{"status":"ok"}', '0000000f7b22737461747573223a226f6b227d'
  '{"status":"ok","name":"M","version":"1.0","n_states":0}', '000000377b22737461747573223a226f6b222c226e616d65223a224d222c2276657273696f6e223a22312e30222c226e5f737461746573223a307d'
  '{"op":"hello","protocol":2,"token":"00ff"}', '0000002a7b226f70223a2268656c6c6f222c2270726f746f636f6c223a322c22746f6b656e223a2230306666227d'
};
end
