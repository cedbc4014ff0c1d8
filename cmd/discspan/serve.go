package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/server"
	"github.com/discspan/discspan/server/api"
	"github.com/discspan/discspan/weights"
)

// defaultWeights is the shipped default model; fastWeights the shipped
// faster one (the pair of tiny models that was the default until session
// 13), offered after it.
var (
	defaultWeights = filepath.Join("weights", "default.safetensors")
	fastWeights    = filepath.Join("weights", "fast.safetensors")
)

func runServe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "[--addr HOST:PORT] [--weights DIR|FILE,...] [--app DIR] [--train] [--jobs DIR] [--token T] [--max-upload BYTES] [--max-uploads N] [--max-queue N] [--min-free-mb MB] [--train-max-mb MB] [--max-words N] [--hosts NAMES]", stdout)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (loopback by default)")
	wdir := fs.String("weights", "", "directories or files of *.safetensors weight files to offer, separated by commas (default "+defaultWeights+" and "+fastWeights+" where they exist, else the default model embedded in the binary)")
	app := fs.String("app", filepath.Join("build", "web"), "directory of the built app (make wasm)")
	enable := fs.Bool("train", false, "enable the training API (POST /api/train, /api/jobs)")
	jobsDir := fs.String("jobs", "", "directory of training jobs; finished models go to its models/ unless --weights is a directory (default: jobs next to the weights directory)")
	token := fs.String("token", "", "bearer token of the training API (default $DISCSPAN_TOKEN; required unless --addr is loopback)")
	maxUpload := fs.Int64("max-upload", server.DefaultMaxUpload, "largest treebank upload in bytes")
	maxUploads := fs.Int("max-uploads", server.DefaultMaxUploads, "uploads read at once (others get 503)")
	maxQueue := fs.Int("max-queue", server.DefaultMaxQueue, "jobs waiting in the queue (others get 503)")
	trainMB := fs.Int64("train-max-mb", server.DefaultTrainMemory>>20, "memory in MiB a training job may take, as estimated from its upload: an upload that would take more gets a 400 saying how long its sentences may be")
	minFree := fs.Int64("min-free-mb", server.DefaultMinFreeDisk>>20, "free space in MiB the jobs folder's disk keeps: uploads that would leave less get 507 (0: no check)")
	maxWords := fs.Int("max-words", tree.DefaultMaxWords, "longest sentence of an upload, in words (-1: no limit)")
	hosts := fs.String("hosts", "", "host names the server answers to besides its address's (comma-separated; a loopback address also answers to localhost, 127.0.0.1 and ::1); other Host headers get 421")
	device := fs.String("device", "cpu", "device of training jobs: cpu, cuda (an NVIDIA GPU) or auto (cuda when one is usable)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := checkMaxWords(*maxWords, false); err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no arguments"); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"max-upload", *maxUpload}, {"max-uploads", int64(*maxUploads)}, {"max-queue", int64(*maxQueue)}} {
		if f.v < 1 {
			return fmt.Errorf("%w: --%s %d: want at least 1", errUsage, f.name, f.v)
		}
	}
	if *trainMB < 1 || *trainMB > 1<<30 {
		return fmt.Errorf("%w: --train-max-mb %d: want 1 to %d", errUsage, *trainMB, 1<<30)
	}
	if *minFree < 0 || *minFree > 1<<30 {
		return fmt.Errorf("%w: --min-free-mb %d: want 0 (no check) to %d", errUsage, *minFree, 1<<30)
	}
	offered, note, cleanup, err := serveWeights(*wdir)
	if err != nil {
		return err
	}
	defer cleanup()
	if note != "" {
		fmt.Fprintln(stdout, note)
	}
	if _, err := os.Stat(filepath.Join(*app, "index.html")); err != nil {
		fmt.Fprintf(stdout, "warning: %s has no built app (run make wasm); / explains this to the browser\n", *app)
	}
	o := server.Options{
		App:     os.DirFS(*app),
		Weights: offered,
		Logf:    func(f string, a ...any) { fmt.Fprintf(stdout, "warning: "+f+"\n", a...) },
		Hosts:   server.HostsFor(*addr, strings.Split(*hosts, ",")),
	}
	if *enable || *jobsDir != "" {
		o.JobsDir = *jobsDir
		if o.JobsDir == "" {
			wd := defaultWeights
			if *wdir != "" {
				wd = filepath.Clean(offered[0])
			}
			if fi, err := os.Stat(wd); err != nil || !fi.IsDir() {
				wd = filepath.Dir(wd)
			}
			o.JobsDir = filepath.Join(filepath.Dir(wd), "jobs")
		}
		o.Token = *token
		if o.Token == "" {
			o.Token = os.Getenv("DISCSPAN_TOKEN")
		}
		o.Loopback, o.MaxUpload, o.Device = server.Loopback(*addr), *maxUpload, *device
		o.MaxUploads, o.MaxQueue, o.MaxWords, o.MinFreeDisk = *maxUploads, *maxQueue, *maxWords, *minFree<<20
		o.TrainMemory = *trainMB << 20
	}
	// Listen first: a server that cannot serve (its address taken) must
	// not resume the training jobs another server runs.
	ln, err := server.Listen(*addr)
	if err != nil {
		return err
	}
	h, err := server.New(o)
	if err != nil {
		ln.Close()
		return err
	}
	defer h.Close()
	if o.JobsDir != "" {
		fmt.Fprintf(stdout, "training API enabled: jobs in %s\n", o.JobsDir)
	}
	ms, err := h.Models()
	if err != nil {
		return err
	}
	for _, m := range ms {
		fmt.Fprintf(stdout, "model %s: %d bytes, dev F1 %.2f, sha256 %s\n", m.Name, m.Bytes, m.DevF1, m.SHA256)
	}
	if len(ms) == 0 {
		fmt.Fprintf(stdout, "warning: no model in %s: the app will say so and cannot parse\n", strings.Join(offered, ", "))
	}
	if !server.Loopback(*addr) {
		fmt.Fprintf(stdout, "warning: %s is not a loopback address: the server is reachable from other machines\n", *addr)
	}
	if o.Hosts == nil {
		fmt.Fprintln(stdout, "warning: any Host header is accepted (name the server's host names with --hosts)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// On shutdown, stop the jobs first: a running one writes its checkpoint
	// (resumed by the next serve), and event streams end.
	go func() { <-ctx.Done(); h.Close() }()
	return server.Serve(ctx, ln, h, func(url string) {
		fmt.Fprintf(stdout, "serving the discspan app at %s (Ctrl-C stops)\n", url)
	})
}

// serveWeights returns the weights paths serve offers: flag's
// comma-separated paths when set (each file there and whole), else defaultWeights where it exists (in
// the repository) followed by fastWeights where that exists, else the
// default model embedded in the binary, written to a temporary directory
// that cleanup removes (note then says so).
func serveWeights(flag string) (paths []string, note string, cleanup func(), err error) {
	cleanup = func() {}
	if flag != "" {
		if paths, err = splitWeights(flag); err != nil {
			return nil, "", cleanup, err
		}
		// A weights file named on the command line must be there and whole
		// (a directory's files are checked as they are listed, and skipped
		// with a warning when broken; a directory may not exist yet, as
		// the one training jobs write their models to).
		for _, p := range paths {
			fi, err := os.Stat(p)
			switch {
			case err != nil && strings.HasSuffix(p, api.WeightsExt):
				return nil, "", cleanup, fmt.Errorf("--weights: %w", err)
			case err == nil && !fi.IsDir() && !fi.Mode().IsRegular():
				return nil, "", cleanup, fmt.Errorf("--weights %s: not a regular file (%v)", p, fi.Mode().Type())
			case err == nil && !fi.IsDir():
				if _, err := weights.Verify(p); err != nil {
					return nil, "", cleanup, fmt.Errorf("--weights: %w", err)
				}
			}
		}
		return paths, "", cleanup, nil
	}
	if _, err := os.Stat(defaultWeights); err == nil {
		paths = []string{defaultWeights}
		if _, err := os.Stat(fastWeights); err == nil {
			paths = append(paths, fastWeights)
		}
		return paths, "", cleanup, nil
	}
	path, cleanup, err := embeddedWeightsFile()
	if err != nil {
		return nil, "", func() {}, err
	}
	return []string{path}, fmt.Sprintf("no %s here: offering the default model embedded in the binary (--weights names others)", defaultWeights), cleanup, nil
}

// embeddedCopyAge is how long the copy of another version's embedded
// model is kept unused: a server of that version may be serving it now,
// and checks it at each start (which makes it young again).
const embeddedCopyAge = 30 * 24 * time.Hour

// dropOldEmbeddedCopies removes, in folder, the copies of other versions'
// embedded models (default-*, not keep) not checked for embeddedCopyAge.
func dropOldEmbeddedCopies(folder, keep string) {
	old, err := filepath.Glob(filepath.Join(folder, "default-*"))
	if err != nil {
		return
	}
	for _, o := range old {
		fi, err := os.Stat(o)
		if o != keep && err == nil && time.Since(fi.ModTime()) > embeddedCopyAge {
			_ = os.RemoveAll(o)
		}
	}
}

// embeddedWeightsFile returns a file holding the embedded default model,
// for serve to offer by path: in the user's cache folder, named by its
// SHA-256 and written once (a server killed before its clean-up leaves
// nothing behind that the next start does not reuse), else in a temporary
// folder that cleanup removes.
func embeddedWeightsFile() (path string, cleanup func(), err error) {
	data := weights.DefaultBytes()
	sum := sha256.Sum256(data)
	if cache, err := os.UserCacheDir(); err == nil {
		dir := filepath.Join(cache, "discspan", "default-"+hex.EncodeToString(sum[:])[:16])
		path := filepath.Join(dir, weights.DefaultName)
		if kept, err := os.ReadFile(path); err == nil && sha256.Sum256(kept) == sum {
			now := time.Now()
			_ = os.Chtimes(dir, now, now) // in use: see dropOldEmbeddedCopies
			return path, func() {}, nil
		}
		if err := os.MkdirAll(dir, 0o755); err == nil {
			if err := atomicfile.WriteBytes(path, data); err == nil {
				dropOldEmbeddedCopies(filepath.Join(cache, "discspan"), dir)
				return path, func() {}, nil
			}
		}
	}
	dir, err := os.MkdirTemp("", "discspan-serve-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path, err = weights.WriteDefault(dir)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return path, cleanup, nil
}
