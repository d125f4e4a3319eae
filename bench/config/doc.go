// Package config loads benchmark configs: strict YAML with file:line errors,
// command-line overrides (--set key=value) and sweep expansion.
//
// A config is read in this order, each step seeing the result of the one
// before:
//
//  1. the YAML file, parsed to a node tree that keeps line numbers;
//  2. the top-level `sweep:` block is taken out of the tree (see Expand);
//  3. --set overrides are applied to the tree (before decoding, so a set
//     value is checked exactly like a value written in the file);
//  4. for a sweep variant: the variant's `set:` block, then its grid values;
//  5. strict decoding: unknown keys and values of the wrong type are errors
//     naming file:line (or the --set flag) and the field path;
//  6. defaults, including those read from the environment: backbone.kind
//     "auto" becomes "openai" when OPENAI_BASE_URL is set and "sim"
//     otherwise; openai base URLs default to OPENAI_BASE_URL (a comma
//     separated list routes users over several endpoints) and the model to
//     OPENAI_MODEL;
//  7. Validate, whose errors are again placed at file:line when the value
//     came from the file.
//
// Secrets never appear in a config: there is no API-key field, and base URLs
// carrying credentials are rejected. Keys are read from the environment by
// the code that builds the model.
//
// Keys in --set flags and in sweep blocks are dotted paths with list
// indices: backbone.model, methods[1].history_tokens. An index equal to a
// list's length appends an entry. Inside a YAML flow mapping ({...}) a key
// with brackets must be quoted: {"methods[0].top_k": 3}.
//
// A config with a sweep block can still be loaded with Load: the result is
// the base config (the file plus --set, without any sweep assignment), and
// Config.Sweep reports that a sweep exists so `bench run` can say so and run
// the base config. Expand returns every variant.
//
// ResolvedYAML is the record of what ran (manifest.json takes the same
// struct as JSON); Hash identifies the work for run naming and resume and
// ignores knobs that cannot change results, such as concurrency.
package config
