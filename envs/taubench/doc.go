// Package taubench is a native Go implementation of τ-bench (Sierra): the
// retail domain (LifeMem's in-stream environment) and the airline domain
// (LifeMem's out-of-distribution environment).
//
// The database comes from the official JSON files; every tool follows the
// official semantics, including their quirks (for example the airline
// update_reservation_flights tool does not change the reservation's cabin).
// Tool outputs reproduce Python's json.dumps byte for byte: key order as
// loaded, ", "/": " separators, ASCII escapes and Python float repr.
//
// An agent action is `Action:\n{"name": ..., "arguments": {...}}`; any text
// whose part after the last "Action:" is not valid JSON is a reply to the
// customer ("respond"). The customer is an llm.Model (Purpose
// "taubench.user", UserSim) or, without a model, a scripted customer
// that states its whole instruction at once, says yes to questions and ends
// the conversation on any other reply.
//
// Task.Instruction is the customer's hidden instruction in the first
// person, as LifeMem's τ-bench trajectories use it for retrieval; agents
// that must not see it should read only the observations. The first
// observation is the system prompt (policy, tool list, action syntax)
// followed by the customer's opening message.
//
// The tools are untyped, as the official Python is: whatever JSON an agent
// sends for an argument is stored, compared, iterated or multiplied with
// Python's semantics (pyops.go), and what Python would raise becomes the
// observation "Error: <exception text>", binding errors included
// ("CancelReservation.invoke() missing 1 required positional argument:
// 'reservation_id'"; arguments that are not a JSON object get the text of
// the failed ** spread).
//
// Reward (the official one): 1 iff sha256(str(to_hashable(data))) of the
// final database equals that of the database obtained by replaying the
// task's gold actions on a fresh copy (hash.go; so 150 and 150.0 differ),
// and every required output string occurs (case-insensitively, with commas
// removed from the reply) in some reply to the customer.
//
// Where Python cannot be matched exactly:
//   - inside calculate, ** with an int operand beyond int64 is evaluated
//     in floats (Python raises or rounds only when converting the result);
//   - JSON that encoding/json rejects but json.loads accepts (NaN,
//     Infinity, -Infinity literals) is read as a reply, not a tool call,
//     and a lone surrogate escape (\ud800) becomes U+FFFD where Python
//     keeps it;
//   - sequence repetition is capped at 4M elements (Python would build it
//     or raise MemoryError); only prices and bag counts are multiplied;
//   - storing a dict key that is not a string raises our own error (the
//     tools never do it with JSON input);
//   - str.lower() and repr() classify characters with Go's Unicode 15
//     tables, CPython 3.11 uses Unicode 14 (characters new in 15 differ);
//   - official tools keep references to the agent's argument lists inside
//     the task data (a later append shows up in the task's own actions);
//     we copy arguments, which only matters when a task is replayed twice
//     in one process after such a mutation.
package taubench
