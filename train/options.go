package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/weights"
)

// Defaults of Options.
const (
	// DefaultMaxBatchWords is the batch size in words. model.md's 5000
	// gives only 23 updates per epoch on the Alpino training set (113k
	// words); on a 2-core CPU, where an epoch takes a minute or more,
	// smaller batches reach a given dev F1 much sooner. The cost per token
	// hardly depends on the batch size (Tiny: 2300-3200 tokens/s for 250 to
	// 5000 words on 2 loaded cores), so equal epochs are equal wall time.
	// Measured (Tiny, seed 1, dev F1 / disc F1 with n3 and proper.prm):
	//
	//	batch words  updates/epoch  epoch 1      epoch 2      epoch 4      epoch 6
	//	250          479            45.9 /  8.6  56.4 / 16.5  66.8 / 32.8  69.7 / 41.0
	//	500          233            37.8 /  6.4  52.5 / 10.8  63.0 / 26.8  67.0 / 33.7
	//	1500          77             0.0 /  0.0  33.7 /  1.5  49.2 / 11.5  60.1 / 20.9
	//	5000          23             0.0 /  0.0   0.0 /  0.0   6.4 /  0.0  32.8 /  3.6
	//
	// 250 leads 500 by 8 points after one epoch and by under 3 after six;
	// with 479 updates per epoch it also decays the learning rate (x0.75
	// every 5000 updates) every 10 epochs and takes noisier steps, so 500
	// is the default, a hedge for runs of hours. Pass 5000 for the paper's
	// setting.
	DefaultMaxBatchWords = 500
	// DefaultCheckpointEvery is the longest time between checkpoints during
	// an epoch.
	DefaultCheckpointEvery = 5 * time.Minute
	// DefaultMinWordCount is model.md's word-vocabulary threshold.
	DefaultMinWordCount = 2
)

// Options configure a training run. Train and Out are required.
type Options struct {
	Train string // training treebank, or a comma-separated list (see readTrainingTrees)
	// MinWordCount is the word-vocabulary threshold: lower-cased words seen
	// at least this often in the training data get an embedding; 0 means
	// DefaultMinWordCount. A resumed run keeps its checkpoint's vocabulary.
	MinWordCount int
	// MaxWords is the longest sentence of the training and dev data: a
	// longer one is an error, found before any example is built (the
	// network's memory grows with the square of the length). 0 means
	// tree.DefaultMaxWords, negative no limit.
	MaxWords int
	// Dev is the development treebank for model selection; empty: no
	// evaluation, the last epoch's parameters are the output.
	Dev string
	// Out is the output weights file (the best model by dev F1).
	Out string
	// Preset names the network sizes (network.PresetNames): "tiny"
	// (default), "small" or "paper". A run with Init and neither Preset
	// nor Config takes the initial model's sizes and dropout rates.
	Preset string
	// Config, when not nil, replaces the preset's sizes and dropout rates
	// (the vocabulary-dependent sizes are set from the data either way).
	Config *network.Config
	// Adam, when not nil, replaces network.DefaultAdam().
	Adam *network.AdamConfig
	// EMA, when in (0,1), keeps an exponential moving average of the
	// parameters (Polyak averaging) with this decay per update (warmed up
	// as min(EMA, (1+u)/(10+u)) at update u); dev evaluation, model
	// selection and the output then use the average. 0 turns it off.
	EMA float64
	// WordDropout, when positive, is alpha of word dropout: in training,
	// each occurrence of a word seen c times is replaced by the unknown word
	// with probability alpha/(alpha+c) (the character BiLSTM still reads
	// it). 0 turns it off.
	WordDropout float64
	// Teacher, when not empty, is a weights file (one model or an
	// ensemble) whose distributions over the span classes of the training
	// sentences are mixed into the targets (knowledge distillation; see
	// network.Soft). It must have been trained with the same vocabulary,
	// or written without some of its labels (ensemble --drop-labels: it
	// then gives them no probability). Files joined by "+" teach together,
	// their models' scores averaged whatever their sizes (e.g. a large
	// model and the shipped pair).
	// A teacher scores its own training data almost perfectly (its targets
	// then add little to the gold ones), so Teacher may instead list K >= 2
	// comma-separated files, cross-fitted teachers: the k-th was trained
	// with HoldOut k of Folds K and scores fold k only, reading the words it
	// never saw in training as unknown.
	Teacher string
	// TeacherWeight is the teacher's share of the targets, in [0, 1]; 0
	// means DefaultTeacherWeight when Teacher is set.
	TeacherWeight float64
	// TeacherTemperature divides the teacher's scores before its softmax
	// (knowledge distillation's temperature, on the teacher's side only:
	// the student's own scores are trained as they are used); 0 means
	// DefaultTeacherTemperature when Teacher is set.
	TeacherTemperature float64
	// Init, when not empty, is a weights file (one model) whose parameters
	// start the run instead of a random initialisation: fine-tuning. It
	// must have the run's network sizes; the run keeps its vocabulary (the
	// training data's words that it lacks are unknown words, as when
	// parsing), so that a model is fine-tuned on another treebank than its
	// own; MinWordCount is then unused. The optimiser starts afresh. The
	// training data's labels the model lacks (left out by ensemble
	// --drop-labels, or absent from its own data) are added to the
	// vocabulary, learnt from a low start (initLabelScore); POS tags it
	// lacks are an error.
	Init string
	// InitMember chooses model InitMember (1-based) of an Init file that
	// holds several (an ensemble, such as the shipped one); 0: the file
	// must hold one model.
	InitMember int
	// Hinge, when positive, adds the structured margin loss with this
	// weight to every sentence's loss (see network.Hinge), decoding with
	// the n3 variant that dev evaluation uses. 0 turns it off.
	Hinge float64
	// HoldOut and Folds, when Folds > 0, leave fold HoldOut (1-based) of
	// Folds out of training: training sentence i (0-based, in file order,
	// sentences without words not counted) is in fold i mod Folds + 1. The
	// vocabulary still comes from the whole file. Such a model scores its
	// held-out fold as one of the cross-fitted teachers of Teacher.
	HoldOut, Folds int
	// Epochs is the number of epochs to train in total (resumed runs
	// included). A resumed run given 0 keeps the count its checkpoint
	// records; a larger count extends it.
	Epochs int
	// MaxBatchWords bounds the words of a batch (a longer sentence makes a
	// batch alone); 0 means DefaultMaxBatchWords.
	MaxBatchWords int
	// Seed seeds the initialisation, the batch order and dropout.
	Seed uint64
	// Resume continues from the checkpoint. Preset, Config, Adam,
	// MaxBatchWords, Seed, EMA, WordDropout, Hinge, the held-out fold and
	// the teacher's weight and temperature then come from the checkpoint (and the
	// parameters, not Init's file) (a value given here
	// that differs is an error); the teacher files are read again (Teacher
	// may name them at a new path, but their weights must be the same);
	// Epochs may extend the run.
	Resume bool
	// Device trains on "cpu", "cuda" (an NVIDIA GPU; an error where there
	// is none) or "auto" (the default: CUDA when a usable GPU is there,
	// else the CPU; the log says which). A run may be resumed on another
	// device.
	Device string
	// Workers is the number of goroutines of the network and of dev
	// parsing; 0 means GOMAXPROCS. Runs are reproducible for a given
	// worker count.
	Workers int
	// Checkpoint is the checkpoint file; empty means Out + ".ckpt".
	Checkpoint string
	// CheckpointEvery is the longest time between checkpoints within an
	// epoch; 0 means DefaultCheckpointEvery, negative disables them.
	CheckpointEvery time.Duration
	// MaxTime, when positive, stops the run (as a cancelled context does:
	// the checkpoint is written, Resume continues) once it has trained for
	// that long. The clock starts when training does, after the data are
	// read and scored with the teacher; it is read between batches, so
	// that every run trains at least one batch, and not during the dev
	// evaluation that ends an epoch, which is always finished.
	MaxTime time.Duration
	// Log receives human-readable progress lines (nil: none).
	Log io.Writer
	// ProgressBar draws a progress bar on standard error during each epoch
	// when it is a terminal (internal/cli).
	ProgressBar bool
	// Progress, when set, is called after every batch and after every
	// epoch's evaluation (from Run's goroutine; keep it quick).
	Progress func(Progress)
	// DType is how the output file stores the weights; 0 means
	// weights.Float32 (exact; convert to float16 for the browser later).
	DType weights.DType
	// CreatedBy is recorded in the output file (e.g. the command line).
	CreatedBy string
	// Files the caller read or writes besides those above, named only so
	// that the run refuses, before any work, to overwrite an input: the
	// files Config and Adam came from (inputs), and a file the caller
	// writes once the run ends, such as a CPU profile (an output).
	ConfigFile, AdamFile, ProfileFile string
	// Now returns the time (nil: time.Now); tests use it to force
	// mid-epoch checkpoints.
	Now func() time.Time
}

// Phase tells what a Progress report follows.
type Phase string

// Progress phases.
const (
	PhaseBatch Phase = "batch" // a training batch
	PhaseEpoch Phase = "epoch" // the end of an epoch (dev scores set)
)

// Progress is one progress report (see Options.Progress).
type Progress struct {
	Phase   Phase   `json:"phase"`
	Epoch   int     `json:"epoch"` // 1-based
	Epochs  int     `json:"epochs"`
	Step    int     `json:"step"` // batches done in this epoch
	Steps   int     `json:"steps"`
	Update  int     `json:"update"` // optimiser updates done in the run
	Loss    float64 `json:"loss"`   // mean per-sentence train loss of the epoch so far
	LR      float64 `json:"lr"`
	TokPerS float64 `json:"tokens_per_s"`
	// Dev scores of this epoch (PhaseEpoch only) and the best so far.
	DevF1      float64 `json:"dev_f1"`
	DevDiscF1  float64 `json:"dev_disc_f1"`
	BestDevF1  float64 `json:"best_dev_f1"`
	BestEpoch  int     `json:"best_epoch"`
	Checkpoint bool    `json:"checkpoint"` // a checkpoint was just written
}

// Summary is the outcome of Run.
type Summary struct {
	Epochs      int     // epochs completed
	Updates     int     // optimiser updates done
	BestEpoch   int     // 0 when no epoch was evaluated
	BestDevF1   float64 // percent
	BestDevDisc float64 // percent
	// Interrupted is true when the context was cancelled or MaxTime ran
	// out (TimeLimit): the checkpoint holds the position, and Run with
	// Resume continues.
	Interrupted bool
	TimeLimit   bool
	Stats       DataStats
	History     []EpochLog
	Out         string // output weights file
	Checkpoint  string
}

// resolved returns the options with defaults filled in, or an error.
func (o Options) resolved() (Options, error) {
	if o.Train == "" {
		return o, fmt.Errorf("train: no training treebank")
	}
	if o.Out == "" {
		return o, fmt.Errorf("train: no output file")
	}
	if o.MinWordCount < 0 {
		return o, fmt.Errorf("train: minimum word count %d", o.MinWordCount)
	}
	if o.Epochs < 0 {
		return o, fmt.Errorf("train: %d epochs", o.Epochs)
	}
	if o.MaxBatchWords < 0 {
		return o, fmt.Errorf("train: batch of %d words", o.MaxBatchWords)
	}
	if err := checkDevice(o.Device); err != nil {
		return o, err
	}
	if o.Device == DeviceCUDA && o.Hinge > 0 {
		return o, fmt.Errorf("train: --device cuda: %s", hingeOnCPU)
	}
	if o.MaxTime < 0 {
		return o, fmt.Errorf("train: time limit %v", o.MaxTime)
	}
	if o.Hinge < 0 || math.IsNaN(o.Hinge) || math.IsInf(o.Hinge, 1) {
		return o, fmt.Errorf("train: hinge weight %g: want 0 (off) or a positive number", o.Hinge)
	}
	if o.WordDropout < 0 || o.WordDropout != o.WordDropout {
		return o, fmt.Errorf("train: word dropout %g: want 0 (off) or a positive alpha", o.WordDropout)
	}
	if o.EMA < 0 || o.EMA >= 1 || o.EMA != o.EMA {
		return o, fmt.Errorf("train: EMA decay %g: want 0 (off) or a value in (0, 1)", o.EMA)
	}
	if err := checkTeacherWeight(o.TeacherWeight); err != nil {
		return o, err
	}
	if o.TeacherWeight > 0 && o.Teacher == "" && !o.Resume {
		return o, fmt.Errorf("train: a teacher weight without a teacher")
	}
	if err := checkTeacherTemperature(o.TeacherTemperature); err != nil {
		return o, err
	}
	if o.TeacherTemperature > 0 && o.Teacher == "" && !o.Resume {
		return o, fmt.Errorf("train: a teacher temperature without a teacher")
	}
	if o.InitMember < 0 || (o.InitMember > 0 && o.Init == "") {
		return o, fmt.Errorf("train: initial model member %d: want a model number (from 1) of an initial model file", o.InitMember)
	}
	if o.Folds < 0 || o.Folds == 1 || (o.Folds == 0) != (o.HoldOut == 0) || o.HoldOut < 0 || o.HoldOut > o.Folds {
		return o, fmt.Errorf("train: held-out fold %d of %d: want a fold k of K >= 2 folds, 1 <= k <= K", o.HoldOut, o.Folds)
	}
	if o.Folds > 0 && o.Teacher != "" {
		return o, fmt.Errorf("train: a held-out fold and a teacher together: the teachers' folds would not be those of the training sentences")
	}
	if o.Preset == "" && o.Init == "" {
		o.Preset = "tiny" // with Init: the initial model's sizes (newTrainer)
	}
	if o.Checkpoint == "" {
		o.Checkpoint = o.Out + ".ckpt"
	}
	if err := o.checkOutputs(); err != nil {
		return o, err
	}
	if o.CheckpointEvery == 0 {
		o.CheckpointEvery = DefaultCheckpointEvery
	}
	if o.DType == 0 {
		o.DType = weights.Float32
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o, nil
}

// presetConfig returns the network sizes of a preset name.
func presetConfig(name string) (network.Config, error) {
	c, err := network.Preset(name)
	if err != nil {
		return c, fmt.Errorf("train: %w", err)
	}
	return c, nil
}

// presetOf names the preset with c's sizes (the vocabulary-dependent ones
// and dropout aside), or "custom".
func presetOf(c network.Config) string {
	sizes := func(c network.Config) [8]int {
		return [8]int{c.WordDim, c.CharDim, c.CharHidden, c.MaxChars, c.LSTM1Hidden, c.LSTM2Hidden, c.LabelMLP, c.SpanMLP}
	}
	for _, name := range network.PresetNames() {
		if p, err := network.Preset(name); err == nil && sizes(p) == sizes(c) {
			return name
		}
	}
	return "custom"
}

// interrupted reports whether ctx was cancelled.
func interrupted(ctx context.Context) bool { return ctx.Err() != nil }

// checkOutputs refuses, before any work, outputs the run could not write or
// should not: the weights, their log and plot, the checkpoint or the
// caller's profile being one of the input files (a treebank, a teacher, the
// initial model, the configuration or optimiser file), which the run would
// overwrite, or two of them being one file; an output that is a folder; a
// folder of the weights that does not exist.
func (o Options) checkOutputs() error {
	type file struct{ name, what string }
	var inputs []file
	for _, e := range splitFileList(o.Train) {
		if name, _, err := splitRepeat(strings.TrimPrefix(strings.TrimSpace(e), "-")); err == nil && name != "" {
			inputs = append(inputs, file{name, "training data"})
		}
	}
	if o.Dev != "" {
		inputs = append(inputs, file{o.Dev, "dev data"})
	}
	if o.Init != "" {
		inputs = append(inputs, file{o.Init, "initial model"})
	}
	for _, name := range strings.FieldsFunc(o.Teacher, func(r rune) bool { return r == ',' || r == '+' }) {
		inputs = append(inputs, file{strings.TrimSpace(name), "teacher"})
	}
	if o.ConfigFile != "" {
		inputs = append(inputs, file{o.ConfigFile, "network configuration"})
	}
	if o.AdamFile != "" {
		inputs = append(inputs, file{o.AdamFile, "optimiser settings"})
	}
	outputs := []file{{o.Out, "output"}, {o.Checkpoint, "checkpoint"}, {logPath(o.Out), "log"}, {plotPath(o.Out), "plot"}}
	if o.ProfileFile != "" {
		outputs = append(outputs, file{o.ProfileFile, "CPU profile"})
	}
	for k, out := range outputs {
		if fi, err := os.Stat(out.name); err == nil && fi.IsDir() {
			return fmt.Errorf("train: the %s %s is a folder", out.what, out.name)
		}
		for _, in := range inputs {
			if atomicfile.SameFile(out.name, in.name) {
				return fmt.Errorf("train: the %s %s is also the %s: the run would overwrite it", out.what, out.name, in.what)
			}
		}
		for _, other := range outputs[:k] {
			if atomicfile.SameFile(out.name, other.name) {
				return fmt.Errorf("train: the %s %s is also the %s: want two files", out.what, out.name, other.what)
			}
		}
	}
	for _, out := range slices.Concat(outputs[:2], outputs[4:]) { // the log and plot lie beside the output
		if out.name == "" {
			continue
		}
		if fi, err := os.Stat(filepath.Dir(out.name)); err != nil || !fi.IsDir() {
			return fmt.Errorf("train: the folder of the %s %s does not exist", out.what, out.name)
		}
	}
	return nil
}
