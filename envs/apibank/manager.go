package apibank

import (
	"context"
	"fmt"
	"math/rand"

	"github.com/memharness/memharness/internal/pystr"
	"github.com/memharness/memharness/llm"
)

// Result is one API call's outcome in the reference's shape.
type Result struct {
	APIName   string
	Input     any // *Dict, or nil for GetToday
	Output    any
	Exception any // nil or the exception text
}

// resultFromDict reads a recorded {"api_name", "input", "output", "exception"}.
func resultFromDict(d *Dict, api string) Result {
	in, _ := d.Get("input")
	out, _ := d.Get("output")
	exc, _ := d.Get("exception")
	name := d.Str("api_name")
	if name == "" {
		name = api
	}
	return Result{APIName: name, Input: in, Output: out, Exception: exc}
}

// pyExc is an exception object returned (not raised) as an API's output, which
// a few reference APIs do by mistake. It prints as its message and equals
// nothing, like a Python exception instance.
type pyExc string

// apiError is an exception raised inside an API: it becomes Result.Exception.
type apiError string

func (e apiError) Error() string { return string(e) }

func raise(format string, a ...any) error { return apiError(fmt.Sprintf(format, a...)) }

// manager is the reference's ToolManager: one set of service databases that
// every API of a session shares, copied from the pristine state on first use.
type manager struct {
	data     *dataset
	dbs      map[string]any
	rng      *rand.Rand
	embedder llm.Embedder
	// searchVecs caches ToolSearcher's description embeddings.
	searchVecs [][]float32
	// ForgotPassword keeps the pending verification between its two calls.
	forgotCode any
	forgotUser string
	// OpenBankAccount has a private in-memory database.
	bank *Dict
}

func newManager(d *dataset, seed int64, emb llm.Embedder) *manager {
	return &manager{
		data:     d,
		dbs:      map[string]any{},
		rng:      rand.New(rand.NewSource(seed)),
		embedder: emb,
		bank:     dictOf(int64(0), dictOf("account", "test", "password", "test", "name", "yifei")),
	}
}

// db returns the session's copy of a database ({} when the data has none).
func (m *manager) db(name string) *Dict {
	if v, ok := m.dbs[name]; ok {
		d, _ := v.(*Dict)
		return d
	}
	v, ok := m.data.databases[name]
	switch {
	case !ok:
		v = NewDict()
	case !isReadOnlyDB(name):
		v = deepCopy(v)
	}
	m.dbs[name] = v
	d, _ := v.(*Dict)
	if d == nil {
		d = NewDict()
	}
	return d
}

// dbAny is db for databases that are not objects (ImageCaptioning is a list).
func (m *manager) dbAny(name string) (any, bool) {
	v, ok := m.data.databases[name]
	return v, ok
}

// isReadOnlyDB marks databases no API writes, shared between sessions uncopied.
func isReadOnlyDB(name string) bool {
	switch name {
	case "Wiki", "SearchEngine", "Symptom", "History", "Stock",
		"QuestionAnswering", "SpeechRecognition", "ImageCaptioning", "Bank":
		return true
	}
	return false
}

// checkToken is the reference CheckToken: the user owning token.
func (m *manager) checkToken(token string) (string, error) {
	acc := m.db("Account")
	for _, k := range acc.Keys() {
		u, _ := acc.Get(k)
		if ud, ok := u.(*Dict); ok {
			if t, _ := ud.Get("token"); pyEqual(t, token) {
				s, _ := k.(string)
				return s, nil
			}
		}
	}
	return "", raise("The token is invalid.")
}

// call runs one parsed action. The error is for calls that never reach the
// API (unknown tool, bad parameter name or type, missing argument); failures
// inside the API come back as Result.Exception.
func (m *manager) call(ctx context.Context, c Call) (Result, error) {
	spec, ok := m.data.spec(c.Name)
	if !ok {
		return Result{}, invalidCall{fmt.Errorf("invalid tool name: %s", c.Name)}
	}
	fn, ok := apiFunc(c.Name)
	if !ok {
		return Result{}, invalidCall{fmt.Errorf("tool %s is described but not implemented", c.Name)}
	}
	args, err := coerce(spec, c)
	if err != nil {
		return Result{}, invalidCall{err}
	}
	for _, name := range spec.InputNames() {
		if _, given := args.get(name); !given && !optionalParam(c.Name, name) {
			return Result{}, invalidCall{fmt.Errorf("%s() missing required argument: '%s'", c.Name, name)}
		}
	}
	res := Result{APIName: c.Name, Input: inputDict(c.Name, spec, args)}
	out, err := fn(ctx, m, args)
	if err != nil {
		if _, ok := err.(apiError); !ok {
			return Result{}, fmt.Errorf("%s: %w", c.Name, err)
		}
		res.Exception = err.Error()
		return res, nil
	}
	res.Output = out
	return res, nil
}

// optionalParam lists the parameters the reference code gives defaults.
func optionalParam(api, param string) bool {
	switch api {
	case "ModifyRegistration":
		return param == "new_appointment_date" || param == "new_appointment_doctor"
	case "RecordHealthData":
		return param == "health_data"
	case "ForgotPassword":
		return param != "status"
	case "Translate":
		return param != "src"
	case "GetToday":
		return true
	}
	return false
}

// inputDict is the "input" the reference records: every declared parameter
// (None when defaulted), or for the **kwargs APIs only what was given.
func inputDict(api string, spec APISpec, args kwargs) any {
	switch api {
	case "GetToday":
		return nil
	case "ForgotPassword", "Translate":
		first := "status"
		if api == "Translate" {
			first = "src"
		}
		d := dictOf(first, args.vals[first])
		for _, k := range args.keys {
			if k != first {
				d.Set(k, args.vals[k])
			}
		}
		return d
	}
	d := NewDict()
	for _, name := range spec.InputNames() {
		v, _ := args.get(name)
		d.Set(name, v)
	}
	return d
}

// stripLower is Python's s.strip().lower().
func stripLower(s string) string { return pystr.Lower(pystr.Strip(s)) }
