// Package external runs a memory method written in any language: a child
// process speaking JSON-RPC 2.0 over its stdin and stdout (one JSON object
// per line), or a service reached over HTTP, as the kind `external`. The
// messages are documented in docs/PROTOCOL.md with a JSON Schema each in
// docs/protocol/; examples/ holds a Python client with no dependencies.
//
// The harness keeps what makes a number trustworthy: the method returns the
// memory and the history window (or a prompt, or an answer) and the
// harness asks the run's model through the same answering path as the
// built-in kinds (redraws, invalid answers, the cache, the call record). A
// child that crashes, hangs, writes something that is not JSON or answers
// another id stops the run loudly, naming the method, the last request and
// the child's last stderr lines; the samples not attempted stay
// unattempted and a re-run resumes.
//
// A method that calls the model itself does so through the run's model
// gateway (llm/gateway, handed over with ServeGateway): every request the
// harness sends binds a gateway scope, whose ID the request carries as
// gateway_scope, so the child's calls are metered and recorded as the
// harness's own, attributed to the method, the user and the sample.
//
// The same kind is a lifelong agent method (AgentEntry, AgentMethod): the
// harness plays the episodes and asks the child for each action (act),
// opens and closes each task (begin_task, end_task), hands it the stream's
// training batches (learn, end_stage) and keeps its state between stages
// (save, load). The child's acting calls are bound to the step, with the
// shared agent's structured view for the sim (agent.SimView), so an agent
// of one's own is comparable with the built-in ones on the embedded
// backbone.
package external
