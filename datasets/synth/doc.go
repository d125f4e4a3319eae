// Package synth writes seeded synthetic datasets in the official formats, so
// the whole suite runs offline. The data carry planted long-range patterns:
// what a method lets the model see changes what it can predict.
package synth
