// Package deploy holds the files that run memharness on a cluster
// (Kubernetes manifests; the Slurm scripts are in scripts/slurm) and the
// tests that check the fields the harness relies on.
package deploy
