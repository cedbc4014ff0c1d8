// Package maketest holds the tests of the repository's Makefile: what
// make demo says while it builds, and that make test runs every step.
package maketest
