package hint

// SimTurn is one message of a simulated conversation.
type SimTurn struct {
	Role string // "agent" or "user"
	Text string
}
