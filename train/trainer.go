package train

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"runtime"
	"time"

	"github.com/discspan/discspan/internal/cli"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
)

// trainer is one training run in progress.
type trainer struct {
	opts  Options // resolved
	set   settings
	data  *dataset
	model *network.Model
	adam  *network.Adam
	grads *network.Params
	best  *network.Params // nil until an epoch was evaluated
	// ema is the moving average of the parameters (Options.EMA), nil
	// without it.
	ema *network.Params
	// counts are the training occurrences of each word id (word dropout).
	counts []int
	st     state
	// lastCkpt is when the last checkpoint was written (or the run began).
	lastCkpt time.Time
	// freshLog: the log file holds an earlier run's epochs, replaced when
	// this run's first epoch is written.
	freshLog bool
	// gpu holds the parameters, moments and average during the epochs
	// when training on a GPU (Options.Device); nil on the CPU.
	gpu Device
	// deadline is when Options.MaxTime runs out (zero: never);
	// stepsThisRun counts the batches this run trained (at least one
	// before the time limit stops it).
	deadline     time.Time
	stepsThisRun int
}

// newTrainer starts a run from scratch.
func newTrainer(ctx context.Context, o Options) (*trainer, error) {
	if _, err := os.Stat(o.Checkpoint); err == nil {
		return nil, fmt.Errorf("train: checkpoint %s exists: resume from it, or remove it to start afresh", o.Checkpoint)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("train: %w", err)
	}
	var vocab *network.Vocab // nil: built from the training data
	var initial *parser.Models
	var err error
	if o.Init != "" {
		if initial, err = readInit(o.Init, o.InitMember); err != nil {
			return nil, err
		}
		vocab = initial.Vocab
	}
	var cfg network.Config
	switch {
	case o.Config != nil:
		cfg = *o.Config
	case o.Preset == "": // with Init (Options.resolve)
		cfg = initial.Models[0].Params.Config()
		o.Preset = presetOf(cfg)
	default:
		if cfg, err = presetConfig(o.Preset); err != nil {
			return nil, err
		}
	}
	adam := network.DefaultAdam()
	if o.Adam != nil {
		adam = *o.Adam
	}
	data, err := loadData(o.Train, o.Dev, vocab, o.Init != "", o.MinWordCount, o.HoldOut, o.Folds, o.MaxWords)
	if err != nil {
		return nil, err
	}
	if st := data.stats.Train; vocab != nil && (st.UnknownLabels > 0 || st.UnknownTags > 0) {
		return nil, fmt.Errorf("train: %s has %d constituents and %d sentences with labels or POS tags that the initial model %s lacks: fine-tuning keeps the model's tags", o.Train, st.UnknownLabels, st.UnknownTags, o.Init)
	}
	cfg = cfg.WithVocab(data.vocab)
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	set := settings{
		Preset: o.Preset, Config: cfg, Adam: adam, MaxBatchWords: o.MaxBatchWords, Seed: o.Seed,
		EMA: o.EMA, WordDropout: o.WordDropout, Hinge: o.Hinge, HoldOut: o.HoldOut, Folds: o.Folds, Workers: o.Workers, Train: o.Train, Dev: o.Dev, TrainHash: data.hash, DevHash: data.devHash,
		Epochs: o.Epochs,
	}
	if set.MaxBatchWords == 0 {
		set.MaxBatchWords = DefaultMaxBatchWords
	}
	if set.Workers <= 0 {
		set.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Teacher != "" {
		set.Teacher, set.TeacherWeight, set.TeacherTemperature = o.Teacher, o.TeacherWeight, o.TeacherTemperature
		if set.TeacherWeight == 0 {
			set.TeacherWeight = DefaultTeacherWeight
		}
		if set.TeacherTemperature == 0 {
			set.TeacherTemperature = DefaultTeacherTemperature
		}
		ts, err := scoreWithTeacher(ctx, data, o, set.Teacher, set.teacherTemperature(), set.Workers)
		if err != nil {
			return nil, err
		}
		set.TeacherSHA256 = ts.SHA256
	}
	data.applyRepeats()
	m, err := network.New(cfg, initSeed(o.Seed))
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	m.Workers = set.Workers
	if o.Init != "" {
		if set.InitSHA256, err = initFrom(m, initial, o.Init, data.vocab); err != nil {
			return nil, err
		}
		set.Init, set.InitMember = o.Init, o.InitMember
	}
	// The log of an earlier run in its place is replaced at the end of the
	// first epoch (freshLog), with the model: until then both stay.
	t := &trainer{opts: o, set: set, data: data, model: m, adam: network.NewAdam(adam, m.Params), grads: m.Params.ZeroClone(), freshLog: true}
	if set.EMA > 0 {
		t.ema = m.Params.Clone()
	}
	return t, nil
}

// resumeTrainer continues a run from its checkpoint. raw are the options as
// given, to tell the settings a caller chose from the defaults.
func resumeTrainer(ctx context.Context, o, raw Options) (*trainer, error) {
	if _, err := os.Stat(o.Checkpoint); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("train: resume: no checkpoint %s to resume from (a run writes it as it goes; start without --resume, or name it with --checkpoint)", o.Checkpoint)
	}
	ck, err := readCheckpoint(o.Checkpoint)
	if err != nil {
		return nil, err
	}
	set := ck.Settings
	if err := checkResumeOptions(raw, set); err != nil {
		return nil, err
	}
	if o.Device == DeviceCUDA && set.Hinge > 0 {
		return nil, fmt.Errorf("train: --device cuda: %s (checkpoint %s trains with --hinge)", hingeOnCPU, o.Checkpoint)
	}
	if raw.Dev == "" {
		o.Dev = set.Dev
	}
	if raw.Epochs > 0 && raw.Epochs < ck.State.Epoch {
		return nil, fmt.Errorf("train: resume: %d epochs asked, but checkpoint %s has done %d already (leave the count out to finish the run's own %d, or ask for more)", raw.Epochs, o.Checkpoint, ck.State.Epoch, set.Epochs)
	}
	if raw.Epochs == 0 && set.Epochs > 0 {
		o.Epochs = set.Epochs // the run's own count, unless extended
	}
	set.Epochs = o.Epochs
	set.Train, set.Dev = o.Train, o.Dev
	// set.DevHash stays: an old checkpoint without it gets it below.
	if raw.Workers > 0 {
		set.Workers = raw.Workers // results then differ in the last bits from a run with the old count
	}
	v, err := ck.vocabOf()
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint %s: vocabulary: %w", o.Checkpoint, err)
	}
	data, err := loadData(o.Train, o.Dev, v, false, 0, set.HoldOut, set.Folds, o.MaxWords)
	if err != nil {
		return nil, err
	}
	if data.hash != set.TrainHash {
		return nil, fmt.Errorf("train: %s is not the training data of checkpoint %s (different trees)", o.Train, o.Checkpoint)
	}
	if set.DevHash != "" && data.devHash != set.DevHash {
		// Epochs scored on other dev trees cannot choose among each other.
		return nil, fmt.Errorf("train: %s is not the dev data of checkpoint %s (different trees; its best epoch was chosen on %s)", cmp.Or(o.Dev, "no dev file"), o.Checkpoint, set.Dev)
	}
	if set.Teacher != "" {
		if raw.Teacher != "" {
			set.Teacher = raw.Teacher
		}
		// Its files are compared before the teacher scores the training
		// data (which may take an hour on the CPU), and again after.
		notTheTeacher := fmt.Errorf("train: teacher %s is not the teacher of checkpoint %s (different weights)", set.Teacher, o.Checkpoint)
		if sum, err := teacherSHA256(set.Teacher); err != nil {
			return nil, err
		} else if sum != set.TeacherSHA256 {
			return nil, notTheTeacher
		}
		ts, err := scoreWithTeacher(ctx, data, o, set.Teacher, set.teacherTemperature(), set.Workers)
		if err != nil {
			return nil, err
		}
		if ts.SHA256 != set.TeacherSHA256 {
			return nil, notTheTeacher
		}
	}
	data.applyRepeats()
	params, err := paramsFromRaw(set.Config, ck.Params)
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint %s: parameters: %w", o.Checkpoint, err)
	}
	m, mErr := fromRaw(ck.AdamM)
	vv, vErr := fromRaw(ck.AdamV)
	if err := errors.Join(mErr, vErr); err != nil {
		return nil, fmt.Errorf("train: checkpoint %s: optimiser: %w", o.Checkpoint, err)
	}
	adam, err := network.RestoreAdam(network.AdamState{Config: set.Adam, Step: ck.AdamStep, M: m, V: vv}, params)
	if err != nil {
		return nil, fmt.Errorf("train: checkpoint %s: %w", o.Checkpoint, err)
	}
	t := &trainer{opts: o, set: set, data: data, model: &network.Model{Params: params, Workers: set.Workers}, adam: adam, grads: params.ZeroClone(), st: ck.State}
	if ck.Best != nil {
		if t.best, err = paramsFromRaw(set.Config, ck.Best); err != nil {
			return nil, fmt.Errorf("train: checkpoint %s: best parameters: %w", o.Checkpoint, err)
		}
	}
	if set.EMA > 0 {
		if ck.EMA == nil {
			return nil, fmt.Errorf("train: checkpoint %s: the parameter average is missing", o.Checkpoint)
		}
		if t.ema, err = paramsFromRaw(set.Config, ck.EMA); err != nil {
			return nil, fmt.Errorf("train: checkpoint %s: parameter average: %w", o.Checkpoint, err)
		}
	}
	if t.set.DevHash == "" {
		t.set.DevHash = data.devHash
	}
	// Lines written after the checkpoint are dropped: they will be written again.
	if err := rewriteLog(t.logPath(), t.st.History); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	// The output is the checkpoint's best model, also where it was moved,
	// removed, or replaced by another run's since.
	if t.best != nil {
		if err := t.writeOutput(t.best, t.st.Best, t.st.BestF1, t.st.BestDisc); err != nil {
			return nil, fmt.Errorf("train: output: %w", err)
		}
	}
	return t, nil
}

// checkResumeOptions reports an error when an option given for a resumed
// run contradicts the checkpoint's settings.
func checkResumeOptions(raw Options, set settings) error {
	var bad []string
	if raw.Preset != "" && raw.Preset != set.Preset {
		bad = append(bad, fmt.Sprintf("preset %q (checkpoint: %q)", raw.Preset, set.Preset))
	}
	if raw.MaxBatchWords != 0 && raw.MaxBatchWords != set.MaxBatchWords {
		bad = append(bad, fmt.Sprintf("batch of %d words (checkpoint: %d)", raw.MaxBatchWords, set.MaxBatchWords))
	}
	if raw.Seed != 0 && raw.Seed != set.Seed {
		bad = append(bad, fmt.Sprintf("seed %d (checkpoint: %d)", raw.Seed, set.Seed))
	}
	if raw.Config != nil && withSizesOf(*raw.Config, set.Config) != set.Config {
		bad = append(bad, "a different network configuration")
	}
	if raw.WordDropout != 0 && raw.WordDropout != set.WordDropout {
		bad = append(bad, fmt.Sprintf("word dropout %g (checkpoint: %g)", raw.WordDropout, set.WordDropout))
	}
	if raw.EMA != 0 && raw.EMA != set.EMA {
		bad = append(bad, fmt.Sprintf("EMA %g (checkpoint: %g)", raw.EMA, set.EMA))
	}
	if raw.Folds != 0 && (raw.Folds != set.Folds || raw.HoldOut != set.HoldOut) {
		bad = append(bad, fmt.Sprintf("held-out fold %d/%d (checkpoint: %d/%d)", raw.HoldOut, raw.Folds, set.HoldOut, set.Folds))
	}
	if raw.Teacher != "" && set.Teacher == "" {
		bad = append(bad, "a teacher (checkpoint: none)")
	}
	if raw.Hinge != 0 && raw.Hinge != set.Hinge {
		bad = append(bad, fmt.Sprintf("hinge weight %g (checkpoint: %g)", raw.Hinge, set.Hinge))
	}
	if raw.Init != "" && set.Init == "" {
		bad = append(bad, "an initial model (checkpoint: random initialisation)")
	}
	if raw.TeacherWeight != 0 && raw.TeacherWeight != set.TeacherWeight {
		bad = append(bad, fmt.Sprintf("teacher weight %g (checkpoint: %g)", raw.TeacherWeight, set.TeacherWeight))
	}
	if raw.TeacherTemperature != 0 && raw.TeacherTemperature != set.teacherTemperature() {
		bad = append(bad, fmt.Sprintf("teacher temperature %g (checkpoint: %g)", raw.TeacherTemperature, set.teacherTemperature()))
	}
	if raw.Adam != nil && *raw.Adam != set.Adam {
		bad = append(bad, "different optimiser settings")
	}
	if len(bad) > 0 {
		return fmt.Errorf("train: resuming: options differ from the checkpoint's: %v", bad)
	}
	return nil
}

// checkFinite returns an error saying the run diverged when a parameter
// of the model is no longer finite (a learning rate far too high makes
// them infinite while the loss of the batch before was still finite).
func (t *trainer) checkFinite() error {
	for _, x := range t.model.Params.Tensors() {
		for _, v := range x.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("train: the training diverged in epoch %d, update %d: parameter %s is %v (lower the learning rate, --adam); the last checkpoint and the best model so far are kept",
					t.st.Epoch+1, t.adam.Step, x.Name, v)
			}
		}
	}
	return nil
}

// checkpoint returns the run's checkpoint.
func (t *trainer) checkpoint() (*checkpoint, error) {
	vocab, err := json.Marshal(t.data.vocab)
	if err != nil {
		return nil, fmt.Errorf("train: vocabulary: %w", err)
	}
	as := t.adam.State()
	c := &checkpoint{
		Settings: t.set,
		Vocab:    vocab,
		Params:   toRaw(t.model.Params.Tensors()),
		AdamStep: as.Step,
		AdamM:    toRaw(tensorsOf(as.M)),
		AdamV:    toRaw(tensorsOf(as.V)),
		State:    t.st,
	}
	if t.best != nil {
		c.Best = toRaw(t.best.Tensors())
	}
	if t.ema != nil {
		c.EMA = toRaw(t.ema.Tensors())
	}
	return c, nil
}

// saveCheckpoint writes the checkpoint file, unless the parameters are no
// longer finite (the last checkpoint is then kept).
func (t *trainer) saveCheckpoint() error {
	if err := t.syncDevice(); err != nil {
		return err
	}
	if err := t.checkFinite(); err != nil {
		return err
	}
	c, err := t.checkpoint()
	if err != nil {
		return err
	}
	if err := writeCheckpoint(t.opts.Checkpoint, c); err != nil {
		return err
	}
	t.lastCkpt = t.opts.Now()
	return nil
}

func (t *trainer) logPath() string  { return logPath(t.opts.Out) }
func (t *trainer) plotPath() string { return plotPath(t.opts.Out) }

// logPath and plotPath are the files written next to the output out.
func logPath(out string) string  { return out + ".log.jsonl" }
func plotPath(out string) string { return out + ".plot.svg" }

// withSizesOf returns c with the vocabulary-dependent sizes of d.
func withSizesOf(c, d network.Config) network.Config {
	c.Labels, c.Tags, c.WordVocab, c.CharVocab = d.Labels, d.Tags, d.WordVocab, d.CharVocab
	return c
}

// scoreWithTeacher gives the training examples the teacher's distributions,
// with a progress bar when the options ask for one.
func scoreWithTeacher(ctx context.Context, data *dataset, o Options, teacher string, temperature float64, workers int) (teacherStats, error) {
	bar := &cli.Progress{}
	if o.ProgressBar {
		bar = cli.NewProgress(len(data.train), "teacher")
	}
	var open teacherScorer
	if o.Device != DeviceCPU {
		open = func(models []*network.Model) (scorer.Scorer, string, error) {
			return gpuTeacher(models, o.Device == DeviceCUDA)
		}
	}
	ts, err := data.addTeacher(ctx, teacher, o.Train, temperature, workers, open, func(done, _ int) { bar.Set(done) })
	bar.Finish()
	if err != nil {
		return ts, err
	}
	if ts.models != nil && data.devGold != nil {
		// How good the teacher is, on the data the student is selected on.
		p, err := parser.New(ts.models[0], data.vocab)
		if err != nil {
			return ts, fmt.Errorf("train: teacher %s: %w", teacher, err)
		}
		p.Scorer = scorer.MeanCPU(ts.models)
		if open != nil {
			sc, _, err := open(ts.models)
			if err != nil {
				return ts, fmt.Errorf("train: teacher %s: %w", teacher, err)
			}
			defer sc.Close()
			p.Scorer = sc
		}
		res, err := parseAndScore(ctx, p, data.devWords, data.devGold, DevVariant, workers)
		if err != nil {
			return ts, fmt.Errorf("train: teacher %s: %w", teacher, err)
		}
		ts.DevF1 = res.All.F1
	}
	data.teacher = ts
	return ts, nil
}
