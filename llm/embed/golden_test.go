package embed_test

// goldenHash8 is Hash{Dim: 8}.Vector("a b a"), computed independently with a
// few lines of Python implementing FNV-1a 64 and the documented weighting.
var goldenHash8 = []float32{0, 0, -0.7130704, 0, -0.6036665, -0.3565352, 0, 0}
