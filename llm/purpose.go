package llm

// Purpose is one call purpose a method kind sends and its default request
// settings under each prompts setting, as the kind's entry declares it
// (predict.Entry.Purposes, agent.Entry.Purposes). Methods hold no sampling
// value themselves: the run fills each method's per-purpose settings from
// the entries of the kinds registered for it, and the config's
// per-method sampling replaces them.
type Purpose struct {
	Name string
	// Release is what the source sends (prompts: release), Own ours
	// (prompts: own); zero sends no setting (the server's defaults).
	Release, Own Params
	// Source says where in the source the release value is set.
	Source string
	// ReleaseFrom is where the release value comes from, in the run
	// record's words (runrecord.FromSource, or runrecord.FromOwn where the
	// source has no such call).
	ReleaseFrom string
}
