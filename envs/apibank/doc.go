// Package apibank is API-Bank levels 1 and 2 as LifeMem runs them: an agent
// gets a user's request, finds tools with ToolSearcher and calls simulated
// APIs ("[ApiName(key='value', ...)]") over in-memory service databases, then
// ends with [Finish()]. Results come back as Python str() of the output
// ("Here's the execution result: ..."). The score re-runs the agent's last
// executed call on fresh databases and applies that API's correctness check
// against the dialogue's last recorded call (1 or 0). At most 5 turns.
//
// The ~50 APIs are reimplemented from the reference (AlibabaResearch
// DAMO-ConvAI api-bank) over its JSON databases, with Python semantics where
// they show: str()/repr rendering, == between values, strptime leniency, dict
// order. Dictionary, Translate (and ImageCaption when its 2.5 MB database is
// absent) call outside services upstream; here they answer from the results
// recorded in the loaded dialogues.
//
// Deviations, all documented where they occur: a bad action (no call,
// unknown tool or parameter, wrong type, missing argument) is an invalid step
// instead of a crash; DeleteMeeting's check compares start_time where the
// reference reads a key that does not exist; random tokens and appointment
// IDs come from the episode seed.
package apibank
