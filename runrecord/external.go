package runrecord

import "strings"

// ExternalMethod is what a run records of a method it ran as a child
// process or reached over HTTP: enough to say which code produced its
// rows.
type ExternalMethod struct {
	Name string `json:"name"`
	// Command is the child's argument vector (empty for a service at URL).
	Command []string `json:"command,omitempty"`
	Dir     string   `json:"dir,omitempty"`
	URL     string   `json:"url,omitempty"`
	// Version is the string the method reported at init, as it sent it
	// (untrusted: every writer escapes it).
	Version         string `json:"version"`
	ProtocolVersion string `json:"protocol_version"`
	// Script and ScriptSHA256 name the script file of the command and its
	// content hash (empty when the command names no file).
	Script       string `json:"script,omitempty"`
	ScriptSHA256 string `json:"script_sha256,omitempty"`
}

// Label is the method's one-line description for report titles:
// "name version (script sha256 abcdef123456)".
func (e ExternalMethod) Label() string {
	parts := []string{e.Name}
	if e.Version != "" {
		parts = append(parts, e.Version)
	}
	switch {
	case e.ScriptSHA256 != "":
		sum := e.ScriptSHA256
		if len(sum) > 12 {
			sum = sum[:12]
		}
		parts = append(parts, "("+e.Script+" sha256 "+sum+")")
	case e.URL != "":
		parts = append(parts, "("+e.URL+")")
	case len(e.Command) > 0:
		parts = append(parts, "("+strings.Join(e.Command, " ")+")")
	}
	return strings.Join(parts, " ")
}

// ExternalLabel lists the run's external methods for report titles ("" when
// none).
func (m Manifest) ExternalLabel() string {
	labels := make([]string, len(m.External))
	for i, e := range m.External {
		labels[i] = e.Label()
	}
	return strings.Join(labels, "; ")
}
