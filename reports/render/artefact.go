package render

// ReportDir is the folder, inside a run directory, that a report fills.
const ReportDir = "report"

// Artefact is one written file, relative to the report folder.
type Artefact struct {
	Path string
	Desc string
}

// Artefacts lists what a report wrote, in writing order.
type Artefacts struct {
	Dir   string
	Files []Artefact
}
