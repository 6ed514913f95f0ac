package play

import (
	"net/http"

	"pitch/server/httpx"
	"pitch/server/wire"
)

// errorFor is the WebSocket error message for err.
func errorFor(err error) wire.ErrorMsg {
	ce := httpx.ClientError(err)
	return wire.ErrorMsg{Type: "error", Message: ce.Message, Code: ce.Code, Params: ce.Params}
}

// errorCode is a WebSocket error message with its code.
func errorCode(code, msg string, params map[string]any) wire.ErrorMsg {
	return wire.ErrorMsg{Type: "error", Message: msg, Code: code, Params: params}
}

// writeError logs err (server side detail) and answers with the client's part.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.log, w, r, err)
}
