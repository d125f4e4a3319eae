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
// "taubench.user", hint.UserSim) or, without a model, a scripted customer
// that states its whole instruction at once, says yes to questions and ends
// the conversation on any other reply.
//
// Task.Instruction is the customer's hidden instruction in the first
// person, as LifeMem's τ-bench trajectories use it for retrieval; agents
// that must not see it should read only the observations. The first
// observation is the system prompt (policy, tool list, action syntax)
// followed by the customer's opening message.
//
// Reward (the official one): 1 iff the final database deep-equals the
// database obtained by replaying the task's gold actions on a fresh copy,
// and every required output string occurs (case-insensitively, with commas
// removed from the reply) in some reply to the customer. Numbers compare by
// value (Python's str-of-tuples hash would tell 60 from 60.0; we do not).
package taubench
