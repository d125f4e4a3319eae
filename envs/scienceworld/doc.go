// Package scienceworld serves the ScienceWorld suite through an adapter for
// environment servers that speak the AgentGym HTTP protocols.
//
// Family A servers (alfworld, sciworld) key environments by "id" and answer
// JSON objects; family B servers (webshop, sqlgym, searchqa) key them by
// "env_idx" and answer bare values. Both report failures as HTTP 200 bodies
// with an "error" key. The adapter in this package (Connect) treats every
// server as untrusted: per-request timeouts, bounded retries on 503 and on
// connection failures that cannot have reached the server, context
// cancellation, and strict decoding of replies.
//
// ScienceWorld's simulator is a Scala jar that cannot run here, so Open and
// Embedded serve recorded gold sequences through ReplayServer, an in-process
// family A sciworld server: the same adapter code runs in tests, in
// `bench envs check`, and against a real server.
package scienceworld
