package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/weights"
)

// fakeClock advances one minute at every reading, so that with
// CheckpointEvery of a minute a checkpoint is written after every batch.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time {
	c.t = c.t.Add(time.Minute)
	return c.t
}

// resumeOptions are the options of the resume tests: 30 sentences, about 7
// batches per epoch, dropout on (so that the dropout seeds must be
// reproduced too).
func resumeOptions(t *testing.T, data, dir string) Options {
	cfg := smallConfig()
	cfg.DropChar, cfg.DropFeat, cfg.DropLSTM, cfg.DropMLP = 0.3, 0.3, 0.3, 0.33
	return Options{
		Train: data, Dev: data, Out: filepath.Join(dir, "model.safetensors"),
		Config: cfg, Adam: fastAdam(), Epochs: 2, MaxBatchWords: 40, Seed: 7, Workers: 2,
		CheckpointEvery: -1,
	}
}

// equalRuns compares two finished runs through their checkpoints: the
// parameters, optimiser state, best parameters and every score must be
// identical (timings may differ).
func equalRuns(t *testing.T, a, b string) {
	t.Helper()
	ca, err := readCheckpoint(a)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := readCheckpoint(b)
	if err != nil {
		t.Fatal(err)
	}
	same := func(what string, x, y []rawTensor) {
		if len(x) != len(y) {
			t.Fatalf("%s: %d vs %d tensors", what, len(x), len(y))
		}
		for i := range x {
			if x[i].Name != y[i].Name || !bytes.Equal(x[i].Data, y[i].Data) {
				t.Errorf("%s %s differs", what, x[i].Name)
			}
		}
	}
	same("params", ca.Params, cb.Params)
	same("adam m", ca.AdamM, cb.AdamM)
	same("adam v", ca.AdamV, cb.AdamV)
	same("best", ca.Best, cb.Best)
	same("ema", ca.EMA, cb.EMA)
	if ca.AdamStep != cb.AdamStep {
		t.Errorf("updates %d vs %d", ca.AdamStep, cb.AdamStep)
	}
	sa, sb := ca.State, cb.State
	if sa.Epoch != sb.Epoch || sa.Batch != sb.Batch || sa.BestF1 != sb.BestF1 || sa.Best != sb.Best || len(sa.History) != len(sb.History) {
		t.Fatalf("states differ: %+v vs %+v", sa, sb)
	}
	for i := range sa.History {
		x, y := sa.History[i], sb.History[i]
		if x.TrainLoss != y.TrainLoss || x.DevF1 != y.DevF1 || x.DevDiscF1 != y.DevDiscF1 || x.Updates != y.Updates || x.TrainWords != y.TrainWords {
			t.Errorf("epoch %d: %+v vs %+v", i+1, x, y)
		}
	}
}

// twoRunDirs makes the folders "a" and "b" in base, for two runs to
// compare.
func twoRunDirs(t *testing.T, base string) (string, string) {
	t.Helper()
	dirA, dirB := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []string{dirA, dirB} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dirA, dirB
}

func TestResumeAfterEpoch(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	dirA, dirB := twoRunDirs(t, base)
	optsA := resumeOptions(t, data, dirA)
	sumA, err := Run(context.Background(), optsA)
	if err != nil {
		t.Fatal(err)
	}
	if sumA.Interrupted || sumA.Epochs != 2 {
		t.Fatalf("uninterrupted run: %+v", sumA)
	}

	// Run B is cancelled after epoch 1 (Ctrl-C), then resumed.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	optsB := resumeOptions(t, data, dirB)
	optsB.Progress = func(p Progress) {
		if p.Phase == PhaseEpoch && p.Epoch == 1 {
			cancel()
		}
	}
	sumB, err := Run(ctx, optsB)
	if err != nil {
		t.Fatal(err)
	}
	if !sumB.Interrupted || sumB.Epochs != 1 {
		t.Fatalf("interrupted run: %+v", sumB)
	}
	optsB.Progress, optsB.Resume = nil, true
	if sumB, err = Run(context.Background(), optsB); err != nil {
		t.Fatal(err)
	}
	if sumB.Interrupted || sumB.Epochs != 2 || sumB.BestDevF1 != sumA.BestDevF1 {
		t.Fatalf("resumed run: %+v, uninterrupted %+v", sumB, sumA)
	}
	equalRuns(t, filepath.Join(dirA, "model.safetensors.ckpt"), filepath.Join(dirB, "model.safetensors.ckpt"))
	if got := bytes.Count(readFile(t, filepath.Join(dirB, "model.safetensors.log.jsonl")), []byte("\n")); got != 2 {
		t.Errorf("log has %d lines, want 2", got)
	}
	// Resuming a finished run writes its best model again where it went.
	out := filepath.Join(dirB, "model.safetensors")
	want := readFile(t, out)
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), optsB); err != nil {
		t.Fatal(err)
	}
	// The same file but for the time it was written (weights' "created",
	// to the second, and the metadata checksum that covers it).
	created := regexp.MustCompile(`"(created|metadata_sha256)":"[^"]*"`)
	if got, err := os.ReadFile(out); err != nil || !bytes.Equal(created.ReplaceAll(got, nil), created.ReplaceAll(want, nil)) || len(got) != len(want) {
		t.Errorf("output after resuming a finished run: %d bytes, %v; want the %d bytes of its best model", len(got), err, len(want))
	}
	// Resuming with other dev trees is refused: they would choose among
	// epochs scored on different data.
	otherDev := shortSentences(t, filepath.Join(base, "a"), 20, 10)
	optsB.Dev = otherDev
	if _, err := Run(context.Background(), optsB); err == nil || !strings.Contains(err.Error(), "is not the dev data") {
		t.Errorf("resume with other dev data: %v, want it refused", err)
	}
	optsB.Dev = data
	// Starting afresh over an existing checkpoint is refused.
	optsB.Resume = false
	if _, err := Run(context.Background(), optsB); err == nil {
		t.Error("fresh run over a checkpoint: no error")
	}
	// Resuming with another seed is refused.
	optsB.Resume, optsB.Seed = true, 8
	if _, err := Run(context.Background(), optsB); err == nil {
		t.Error("resume with another seed: no error")
	}
	// Resuming with the same file weighted otherwise (FILE*K) is refused.
	optsB.Seed, optsB.Train = 7, data+"*2"
	if _, err := Run(context.Background(), optsB); err == nil || !strings.Contains(err.Error(), "is not the training data") {
		t.Errorf("resume with the training file repeated: %v, want the data refused", err)
	}
}

// TestFreshRunKeepsOldLog: a new run in the place of an old one (whose
// checkpoint is gone) leaves the old model and log alone until its first
// epoch replaces them, so a run stopped before then loses neither.
func TestFreshRunKeepsOldLog(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 30, 12)
	opts := resumeOptions(t, data, dir)
	log := filepath.Join(dir, "model.safetensors.log.jsonl")
	if err := os.WriteFile(log, []byte("{\"Epoch\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Progress = func(p Progress) { cancel() } // stop at the first report
	sum, err := Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Interrupted || sum.Epochs != 0 {
		t.Fatalf("run stopped in epoch 1: %+v", sum)
	}
	if got := string(readFile(t, log)); got != "{\"Epoch\":1}\n" {
		t.Errorf("log of the earlier run became %q", got)
	}
	opts.Progress, opts.Resume = nil, true
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(readFile(t, log), []byte("\n")); got != 2 {
		t.Errorf("log has %d lines after 2 epochs, want 2 (the earlier run's replaced)", got)
	}
}

// TestRunLocked: a run whose output another run is writing is refused
// before it touches any file of that run.
func TestRunLocked(t *testing.T) {
	dir := t.TempDir()
	data := shortSentences(t, dir, 30, 12)
	opts := resumeOptions(t, data, dir)
	temp := filepath.Join(dir, ".model.safetensors.ckpt.tmp-1") // another run's, being written
	if err := os.WriteFile(temp, []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	unlock, err := atomicfile.Lock(opts.Out)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := Run(context.Background(), opts); !errors.Is(err, atomicfile.ErrLocked) {
		t.Fatalf("run on a locked output: %v, want ErrLocked", err)
	}
	if _, err := os.Stat(temp); err != nil {
		t.Errorf("the refused run touched the other run's files: %v", err)
	}
}

// TestRepeatedFileEpoch checks that an epoch of a run over FILE*2 trains
// on each sentence twice: twice the words, and a model file that says so.
func TestRepeatedFileEpoch(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	words := map[string]int{}
	for _, list := range []string{data, data + "*2"} {
		dir := t.TempDir()
		o := resumeOptions(t, data, dir)
		o.Train, o.Epochs = list, 1
		sum, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		ck, err := readCheckpoint(o.Out + ".ckpt")
		if err != nil {
			t.Fatal(err)
		}
		words[list] = ck.State.History[0].TrainWords
		if sum.Epochs != 1 || words[list] == 0 {
			t.Fatalf("%s: %+v, %d words trained on", list, sum, words[list])
		}
		f, err := weights.ReadMeta(o.Out)
		if err != nil {
			t.Fatal(err)
		}
		if want := describeTrainingList(list); f.Meta.TrainingData != want || strings.Contains(list, "*2") != strings.HasSuffix(want, " (x2)") {
			t.Errorf("%s: the model file says it was trained on %q, want %q", list, f.Meta.TrainingData, want)
		}
	}
	if words[data+"*2"] != 2*words[data] {
		t.Errorf("an epoch over FILE*2 trained on %d words, over FILE %d: want twice", words[data+"*2"], words[data])
	}
}

// TestResumeMidEpoch interrupts a run in the middle of its first epoch, and
// also restarts a run from a periodic mid-epoch checkpoint as if the process
// had crashed right after writing it.
func TestResumeMidEpoch(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	dirs := map[string]string{}
	for _, name := range []string{"a", "cancel", "crash"} {
		dirs[name] = filepath.Join(base, name)
		if err := os.Mkdir(dirs[name], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Run(context.Background(), resumeOptions(t, data, dirs["a"])); err != nil {
		t.Fatal(err)
	}

	// Cancelled after the third batch of epoch 1.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := resumeOptions(t, data, dirs["cancel"])
	opts.Progress = func(p Progress) {
		if p.Phase == PhaseBatch && p.Epoch == 1 && p.Step == 3 {
			cancel()
		}
	}
	sum, err := Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Interrupted || sum.Updates != 3 {
		t.Fatalf("interrupted run: %+v", sum)
	}
	opts.Progress, opts.Resume = nil, true
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	equalRuns(t, filepath.Join(dirs["a"], "model.safetensors.ckpt"), filepath.Join(dirs["cancel"], "model.safetensors.ckpt"))

	// A checkpoint after every batch; keep the one written after batch 4 of
	// epoch 2 and resume from it once the run has finished.
	opts = resumeOptions(t, data, dirs["crash"])
	clock := &fakeClock{t: time.Unix(0, 0)}
	opts.Now, opts.CheckpointEvery = clock.now, time.Minute
	ckpt := filepath.Join(dirs["crash"], "model.safetensors.ckpt")
	var saved []byte
	opts.Progress = func(p Progress) {
		if p.Phase == PhaseBatch && p.Epoch == 2 && p.Step == 4 {
			if !p.Checkpoint {
				t.Error("no checkpoint after batch 4")
			}
			saved = readFile(t, ckpt)
		}
	}
	if _, err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if saved == nil {
		t.Fatal("no mid-epoch checkpoint seen")
	}
	if err := os.WriteFile(ckpt, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Progress, opts.Resume = nil, true
	sum, err = Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Epochs != 2 {
		t.Fatalf("resumed run: %+v", sum)
	}
	equalRuns(t, filepath.Join(dirs["a"], "model.safetensors.ckpt"), ckpt)
}

// With EMA the run keeps a parameter average that differs from the
// parameters, evaluates and writes it, and resumes it bit for bit.
func TestEMAResume(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	dirA, dirB := twoRunDirs(t, base)
	optsA := resumeOptions(t, data, dirA)
	optsA.EMA = 0.9
	if _, err := Run(context.Background(), optsA); err != nil {
		t.Fatal(err)
	}
	ck, err := readCheckpoint(optsA.Out + ".ckpt")
	if err != nil {
		t.Fatal(err)
	}
	if ck.Settings.EMA != 0.9 || len(ck.EMA) != len(ck.Params) {
		t.Fatalf("checkpoint: EMA %g with %d tensors", ck.Settings.EMA, len(ck.EMA))
	}
	differ := false
	for i := range ck.EMA {
		differ = differ || !bytes.Equal(ck.EMA[i].Data, ck.Params[i].Data)
	}
	if !differ {
		t.Error("the average equals the parameters")
	}
	if ck.State.Best == ck.State.Epoch {
		for i := range ck.EMA {
			if !bytes.Equal(ck.EMA[i].Data, ck.Best[i].Data) {
				t.Fatalf("best epoch is the last, but the best parameters are not the average (%s)", ck.EMA[i].Name)
			}
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	optsB := resumeOptions(t, data, dirB)
	optsB.EMA = 0.9
	optsB.Progress = func(p Progress) {
		if p.Phase == PhaseEpoch && p.Epoch == 1 {
			cancel()
		}
	}
	if _, err := Run(ctx, optsB); err != nil {
		t.Fatal(err)
	}
	optsB.Progress, optsB.Resume = nil, true
	if _, err := Run(context.Background(), optsB); err != nil {
		t.Fatal(err)
	}
	equalRuns(t, optsA.Out+".ckpt", optsB.Out+".ckpt")
	// Resuming with another decay is refused; a bad decay too.
	optsB.EMA = 0.5
	if _, err := Run(context.Background(), optsB); err == nil {
		t.Error("resume with another EMA decay: no error")
	}
	optsB.Resume, optsB.EMA = false, 1
	if _, err := Run(context.Background(), optsB); err == nil {
		t.Error("EMA decay 1: no error")
	}
}

// TestResumeKeepsEpochCount resumes a run of 3 epochs, stopped after the
// first, without naming a count: it finishes its own 3 epochs; naming 4
// extends it; naming fewer than it has done is refused.
func TestResumeKeepsEpochCount(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 20, 10)
	for _, tc := range []struct {
		name          string
		resumeEpochs  int
		wantEpochsRun int
	}{{"own count", 0, 3}, {"extended", 4, 4}} {
		t.Run(tc.name, func(t *testing.T) {
			o := resumeOptions(t, data, filepath.Join(base, tc.name))
			o.Out = filepath.Join(base, tc.name+".safetensors")
			o.Epochs = 3
			o = runStoppedAndResumed(t, o, 1, func(r *Options) { r.Epochs = tc.resumeEpochs })
			ck, err := readCheckpoint(o.Out + ".ckpt")
			if err != nil {
				t.Fatal(err)
			}
			if ck.State.Epoch != tc.wantEpochsRun || len(ck.State.History) != tc.wantEpochsRun {
				t.Errorf("resumed with --epochs %d: %d epochs done (%d logged), want %d", tc.resumeEpochs, ck.State.Epoch, len(ck.State.History), tc.wantEpochsRun)
			}
			// Fewer epochs than the checkpoint has done is refused, and the
			// checkpoint is left as it was.
			o.Epochs = ck.State.Epoch - 1
			if _, err := Run(context.Background(), o); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has done %d already", ck.State.Epoch)) {
				t.Errorf("resumed with %d epochs after %d: %v, want a refusal", o.Epochs, ck.State.Epoch, err)
			}
			if again, err := readCheckpoint(o.Out + ".ckpt"); err != nil || again.State.Epoch != ck.State.Epoch {
				t.Errorf("after the refusal: %v", err)
			}
		})
	}
}

// TestMaxTimeMakesProgress: with a time limit shorter than a batch (the
// clock moves a minute at each reading, the limit is a minute), every run
// trains one batch and stops, the dev evaluation that ends an epoch is
// never cut, and the runs resumed one after another end where an
// uninterrupted run does, identical to it.
func TestMaxTimeMakesProgress(t *testing.T) {
	base := t.TempDir()
	data := shortSentences(t, base, 30, 12)
	dirA, dirB := twoRunDirs(t, base)
	if _, err := Run(context.Background(), resumeOptions(t, data, dirA)); err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)}
	opts := resumeOptions(t, data, dirB)
	opts.MaxTime, opts.Now = time.Minute, clock.now
	runs, updates := 0, 0
	for ; runs < 100; runs++ {
		sum, err := Run(context.Background(), opts)
		if err != nil {
			t.Fatalf("run %d: %v", runs+1, err)
		}
		if sum.Updates != updates+1 && !(sum.Updates == updates && !sum.Interrupted) {
			t.Fatalf("run %d: %d updates after %d: want one batch a run", runs+1, sum.Updates, updates)
		}
		updates = sum.Updates
		if !sum.Interrupted {
			break
		}
		if !sum.TimeLimit {
			t.Fatalf("run %d stopped, but not at the time limit: %+v", runs+1, sum)
		}
		opts.Resume = true
	}
	equalRuns(t, filepath.Join(dirA, "model.safetensors.ckpt"), filepath.Join(dirB, "model.safetensors.ckpt"))
	t.Logf("%d runs of one batch each", runs+1)
}
