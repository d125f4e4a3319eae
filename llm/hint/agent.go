package hint

// UserSim asks for the next message of a simulated customer (τ-bench's user
// simulator, Purpose "taubench.user"). The sim backbone should answer from
// Instruction only: reveal what the agent asks for, one piece at a time,
// never invent facts the instruction does not give (say you do not know
// instead), say yes when the agent asks to confirm an action the
// instruction wants, and answer exactly "###STOP###" once the instruction's
// goal is met or cannot be met.
type UserSim struct {
	// Env is the environment ("taubench-retail", "taubench-airline").
	Env string
	// Instruction is the customer's hidden goal and persona.
	Instruction string
	// Turns is the conversation so far, oldest first. It starts with the
	// agent's greeting; the customer's own earlier messages have Role
	// "user", the agent's replies Role "agent".
	Turns []SimTurn
}

// SimTurn is one message of a simulated conversation.
type SimTurn struct {
	Role string // "agent" or "user"
	Text string
}
