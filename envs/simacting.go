package envs

// SimActing is what the embedded backbone's acting reader (agent.SimReaders)
// knows of one environment: the action syntax its instructions teach a real
// model. The reader imitates retrieved experience first; it asks an
// environment's SimActing only for the actions an observation offers and
// for a plausible move when no experience applies. It lives beside the
// environment, so the model layer never names one.
type SimActing struct {
	// Env is the environment's registry name, as agent hints carry it.
	Env string
	// Offered lists the actions obs offers when it has no "Available
	// actions:" line (WebShop's bracketed buttons); nil: none beyond it.
	Offered func(obs string) []string
	// Default is the move without experience (nil: "look").
	Default func(v SimActView) string
}

// SimActView is what the acting reader has read of an episode when it falls
// back to an environment's default move.
type SimActView struct {
	// Task is the task text.
	Task string
	// Step counts the agent's accepted actions so far.
	Step int
	// Obs is the latest observation.
	Obs string
	// Offered are the actions the observation offers (may be empty).
	Offered []string
	// TaskWords are the task's content words in order: lower-cased, without
	// function words and one-letter tokens.
	TaskWords []string
}
