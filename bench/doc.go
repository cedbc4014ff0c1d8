// Package bench holds the measurements behind discspan's bench commands,
// so that cmd/discspan only parses flags and prints: the load test of the
// server's weight downloads (LoadServe: latency percentiles, every byte
// checked, the process's peak RSS and a heap sampler) and the scoring
// benchmark of the network's backends (Scoring: setup, warm-up and timed
// passes, and each backend's largest difference from the CPU reference).
// The folder also holds torch_train.py, the same network and training step
// in PyTorch, for speed comparisons of the CUDA trainer.
package bench
