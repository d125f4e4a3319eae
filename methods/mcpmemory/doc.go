// Package mcpmemory is the mcp_memory method kind: a Model Context Protocol
// memory server, run as it is (a stdio command started per user, or a
// streamable-HTTP URL), used as the memory of a behaviour-prediction
// method through the official Go SDK's client. A mapping in the config
// names the tool that writes a record and the tool that searches, with
// argument templates checked when the config loads; the history is
// written record by record, and each question is answered with the
// retrieved memories in the RAG memory block of the shared answer prompt.
// A family whose history is of another kind (a conversation's turns) hands
// its records over as Items (PrepareItems, Search) and shows the memories
// Search keeps in a prompt of its own.
// The same mapping makes a server the experience store of a lifelong agent
// method (AgentEntry): trajectories written as they are learned, a task's
// search shown as exemplars.
//
// Child servers get an environment built from an allowlist (never the
// user's keys; the run's model gateway adds its variables: a gateway of
// the server's own when the method is served one (ServeGateway), bound to
// each tool call, or the variables of GatewayEnv), a per-call timeout, their stderr tail in errors and in the
// user's checkpoints, and are killed with the run (on Linux, by the kernel
// even when the harness is killed). Every tool call goes into the run's
// call record (llm.ToolCall), and a plan starts no server (PlanMemory,
// PlanPredict).
package mcpmemory
