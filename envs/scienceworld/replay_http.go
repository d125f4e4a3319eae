package scienceworld

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

// maxRequest bounds a request body.
const maxRequest = 1 << 20

// replayRequest is the union of the sciworld request bodies; pointers tell
// a missing field from a zero.
type replayRequest struct {
	ID      *int    `json:"id"`
	DataIdx *int    `json:"data_idx"`
	Action  *string `json:"action"`
}

// ServeHTTP speaks AgentGym's sciworld routes. Like the Python server, it
// reports environment failures as HTTP 200 {"error": ...} and malformed
// requests as 422 {"detail": ...}.
func (s *ReplayServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route := r.URL.Path
	method := map[string]string{
		"/": http.MethodGet, "/create": http.MethodPost, "/reset": http.MethodPost,
		"/step": http.MethodPost, "/close": http.MethodPost, "/observation": http.MethodGet,
		"/action_hint": http.MethodGet, "/goals": http.MethodGet, "/detail": http.MethodGet,
	}[route]
	switch {
	case method == "":
		writeJSON(w, http.StatusNotFound, map[string]any{"detail": "Not Found"})
		return
	case r.Method != method:
		writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"detail": "Method Not Allowed"})
		return
	}
	var req replayRequest
	if method == http.MethodPost && route != "/create" {
		if err := json.NewDecoder(io.LimitReader(r.Body, maxRequest)).Decode(&req); err != nil {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": "invalid JSON body: " + err.Error()})
			return
		}
	}
	if method == http.MethodGet && route != "/" {
		id, err := strconv.Atoi(r.URL.Query().Get("id"))
		if err != nil {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": "query parameter id must be an integer"})
			return
		}
		req.ID = &id
	}
	if missing := missingField(route, req); missing != "" {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": "field required: " + missing})
		return
	}
	out, err := s.route(route, req)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func missingField(route string, req replayRequest) string {
	switch {
	case route == "/" || route == "/create":
		return ""
	case req.ID == nil:
		return "id"
	case route == "/reset" && req.DataIdx == nil:
		return "data_idx"
	case route == "/step" && req.Action == nil:
		return "action"
	}
	return ""
}

// route runs a validated request.
func (s *ReplayServer) route(route string, req replayRequest) (any, error) {
	switch route {
	case "/":
		return "This is environment SciWorld.", nil
	case "/create":
		id, err := s.create()
		if err != nil {
			return nil, err
		}
		return map[string]any{"id": id}, nil
	case "/reset":
		return s.reset(*req.ID, *req.DataIdx)
	case "/step":
		return s.step(*req.ID, *req.Action)
	case "/close":
		if err := s.closeEnv(*req.ID); err != nil {
			return nil, err
		}
		return true, nil
	}
	e, err := s.detail(*req.ID)
	if err != nil {
		return nil, err
	}
	switch route {
	case "/observation":
		return e.obs, nil
	case "/action_hint":
		return map[string]any{"possible_actions": actionTemplates(), "possible_objects": []string{}}, nil
	case "/goals":
		return map[string]any{"goals": goalProgress(e)}, nil
	}
	return map[string]any{"deleted": e.deleted, "done": e.done, "observation": e.obs, "score": e.score}, nil
}

// actionTemplates are ScienceWorld's action templates (facts from its docs).
func actionTemplates() []string {
	return []string{
		"open OBJ", "close OBJ", "activate OBJ", "deactivate OBJ", "connect OBJ to OBJ", "disconnect OBJ",
		"use OBJ", "use OBJ on OBJ", "look around", "look at OBJ", "look in OBJ", "read OBJ",
		"move OBJ to OBJ", "pick up OBJ", "put down OBJ", "pour OBJ into OBJ", "dunk OBJ into OBJ",
		"mix OBJ", "go to LOC", "eat OBJ", "flush OBJ", "focus on OBJ", "wait", "wait1", "task", "inventory",
	}
}

// goalProgress summarises replay progress (the real server lists goals).
func goalProgress(e *replayEnv) string {
	if e.game == nil {
		return ""
	}
	return "Gold steps completed: " + strconv.Itoa(e.pos-e.game.start) + " of " + strconv.Itoa(len(e.game.path)-e.game.start)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"detail":"encode"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
