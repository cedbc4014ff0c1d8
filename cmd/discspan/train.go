package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/train"
	"github.com/discspan/discspan/weights"
)

// defaultEpochs is the epoch count of a new run that names none.
const defaultEpochs = 200

func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "--train FILE --dev FILE --out W [--preset tiny|small|paper] [--epochs E] [--resume] [--batch-words N] [--seed S] [--workers K]", stdout)
	trainPath := fs.String("train", "", "training treebank (export, discbracket or PTB brackets), or a comma-separated list read as one; a name prefixed with - lists sentences to drop from the training data (e.g. train.dbr,extra.dbr,-dev.dbr,-test.dbr); a name suffixed with *K (K up to 100) is trained on K times an epoch, its words counted once for the vocabulary (e.g. train.dbr*2,extra.dbr)")
	devPath := fs.String("dev", "", "development treebank: the model with the best dev F1 (n3 decoder, proper.prm) is kept")
	out := fs.String("out", "", "output weights file; OUT.log.jsonl, OUT.plot.svg and OUT.ckpt are written next to it")
	preset := fs.String("preset", "", "network sizes: tiny, small or paper (default tiny, or with --init the initial model's; a resumed run keeps its own)")
	configPath := fs.String("config", "", "JSON file of network sizes and dropout rates (network.Config fields) replacing the preset's (with --init and no --preset, the initial model's)")
	maxWords := fs.Int("max-words", 0, "longest sentence of the training and dev data, in words (a longer one is an error; default 300, -1: no limit)")
	minCount := fs.Int("min-word-count", 0, "words (lower-cased) seen at least this often in the training data get an embedding (default 2; a larger threshold keeps a model trained on more data small)")
	wordDrop := fs.Float64("word-dropout", 0, "alpha of word dropout: a training word seen c times is read as unknown with probability alpha/(alpha+c) (e.g. 0.25); 0: off")
	teacher := fs.String("teacher", "", "distil: mix this model's (or ensemble's) distributions over the span classes into the targets; it must share the training data's vocabulary (labels left out by ensemble --drop-labels get no probability). A+B: files of any sizes teaching together, their scores averaged. T1,...,TK: cross-fitted teachers, Tk trained with --hold-out k/K, each scoring its held-out fold")
	holdOut := fs.String("hold-out", "", "k/K: leave fold k of K out of training (training sentence i is in fold i mod K + 1), to make cross-fitted teachers")
	initPath := fs.String("init", "", "start from this trained model's parameters (one model of the same sizes) instead of random ones: fine-tuning, also on another treebank; the run keeps the model's vocabulary (--min-word-count unused), adding the training data's labels it lacks (learnt from a low start); training data with POS tags it lacks is an error")
	initMember := fs.Int("init-member", 0, "with --init of an ensemble file (such as weights/default.safetensors): start from its model K (from 1)")
	hinge := fs.Float64("hinge", 0, "weight of the structured margin loss (decode n3 with cost-augmented scores; see network.Hinge) added to the cross-entropy; 0: off")
	teacherTemp := fs.Float64("teacher-temperature", 0, fmt.Sprintf("divide the teacher's scores by this before its softmax: above 1, flatter targets (0: %g with --teacher)", float64(train.DefaultTeacherTemperature)))
	teacherWeight := fs.Float64("teacher-weight", 0, fmt.Sprintf("the teacher's share of the targets, in [0,1] (0: %g with --teacher)", train.DefaultTeacherWeight))
	ema := fs.Float64("ema", 0, "keep a moving average of the parameters with this decay per update (e.g. 0.999) and evaluate, select and write it; 0: off")
	adamPath := fs.String("adam", "", "JSON file of optimiser settings (network.AdamConfig fields: lr, beta1, beta2, eps, clip_norm, decay, decay_every) replacing the defaults")
	epochs := fs.Int("epochs", 0, fmt.Sprintf("epochs in total (default %d; a resumed run keeps its own count unless this extends it)", defaultEpochs))
	resume := fs.Bool("resume", false, "continue from the checkpoint")
	batchWords := fs.Int("batch-words", 0, fmt.Sprintf("at most N words per batch (default %d)", train.DefaultMaxBatchWords))
	seed := fs.Uint64("seed", 0, "random seed (default 1; a resumed run keeps its own)")
	device := fs.String("device", "auto", "train on cpu, cuda (an NVIDIA GPU) or auto (cuda when a usable GPU is there, else cpu; the log says which)")
	workers := fs.Int("workers", 0, "goroutines of the network and of dev parsing (default: all cores; results are reproducible for a given count)")
	ckpt := fs.String("checkpoint", "", "checkpoint file (default OUT.ckpt)")
	every := fs.Duration("checkpoint-every", train.DefaultCheckpointEvery, "longest time between checkpoints within an epoch (0: the default; negative: only at the end of each epoch)")
	maxTime := fs.Duration("max-time", 0, "stop after training for this long (e.g. 7m, 2h30m) as Ctrl-C does: the current batch is finished, the checkpoint written, the best epoch kept in the output; --resume continues (with a limit of its own); the clock starts once the data are read and scored with the teacher, every run trains at least one batch, and an epoch's dev evaluation is always finished; exit status 0, as for a finished run, where a signal gives 128 plus its number; 0: no limit")
	dtype := fs.String("dtype", "F32", "how the output stores weights: F32, F16, I8 or I4")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := cmp.Or(checkWorkers(*workers), checkMaxWords(*maxWords, true)); err != nil {
		return err
	}
	if err := wantArgs(fs, rest, 0, "no positional arguments"); err != nil {
		return err
	}
	switch {
	case *trainPath == "":
		return fmt.Errorf("%w: --train FILE is required", errUsage)
	case *devPath == "":
		return fmt.Errorf("%w: --dev FILE is required", errUsage)
	case *out == "":
		return fmt.Errorf("%w: --out FILE is required", errUsage)
	case *epochs < 0 || (*epochs == 0 && isFlagSet(fs, "epochs")):
		return fmt.Errorf("%w: --epochs must be at least 1", errUsage)
	case *batchWords < 0:
		return fmt.Errorf("%w: --batch-words must be positive", errUsage)
	case *maxTime < 0:
		return fmt.Errorf("%w: --max-time must not be negative", errUsage)
	}
	if err := checkWeightsOut("out", *out); err != nil {
		return err
	}
	base := "tiny"
	if *preset != "" {
		base = *preset
	}
	baseConfig, err := network.Preset(base)
	if err != nil {
		return fmt.Errorf("%w: --preset %q: want one of %s", errUsage, *preset, strings.Join(network.PresetNames(), ", "))
	}
	if *preset == "" && *initPath != "" && *configPath != "" && !*resume {
		// The configuration changes the initial model's sizes and rates,
		// which the run takes without --preset.
		if baseConfig, err = train.InitialConfig(*initPath); err != nil {
			return err
		}
	}
	var cfg *network.Config
	if *configPath != "" {
		data, err := os.ReadFile(*configPath)
		if err != nil {
			return err
		}
		c := baseConfig
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields() // a misspelt size would be ignored
		if err := dec.Decode(&c); err != nil {
			return fmt.Errorf("%s: %w", *configPath, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return fmt.Errorf("%s: text after the configuration's JSON object", *configPath)
		}
		// Sizes checked now, with the preset's placeholder vocabulary
		// (checked again with the treebank's), before anything is read.
		if err := c.Validate(); err != nil {
			return fmt.Errorf("%s: %w", *configPath, err)
		}
		cfg = &c
	}
	var adam *network.AdamConfig
	if *adamPath != "" {
		data, err := os.ReadFile(*adamPath)
		if err != nil {
			return err
		}
		a := network.DefaultAdam()
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return fmt.Errorf("%s: %w", *adamPath, err)
		}
		if a.LR <= 0 || a.Beta1 < 0 || a.Beta1 >= 1 || a.Beta2 < 0 || a.Beta2 >= 1 || a.Decay <= 0 || a.DecayEvery < 0 || a.ClipNorm < 0 {
			return fmt.Errorf("%s: out-of-range optimiser settings %+v", *adamPath, a)
		}
		adam = &a
	}
	dt, err := weights.ParseDType(*dtype)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *seed == 0 && !*resume {
		*seed = 1
	}
	var fold, folds int
	if *holdOut != "" {
		if n, err := fmt.Sscanf(*holdOut, "%d/%d", &fold, &folds); n != 2 || err != nil || folds < 2 || fold < 1 || fold > folds {
			return fmt.Errorf("%w: --hold-out %q: want k/K with K >= 2 and 1 <= k <= K", errUsage, *holdOut)
		}
	}

	// The profile is kept in memory and written once the run has trained
	// (train.Run refuses first a profile file that is one of its inputs
	// or outputs): a refused run leaves every file as it was, and a run
	// that fails after its first batch (a diverging model, a full disk)
	// still leaves its profile.
	var profile bytes.Buffer
	if *cpuProfile != "" {
		if err := pprof.StartCPUProfile(&profile); err != nil {
			return err
		}
		defer pprof.StopCPUProfile() // where the run fails
	}
	writeProfile := func() error {
		if *cpuProfile == "" {
			return nil
		}
		pprof.StopCPUProfile()
		if err := atomicfile.WriteBytes(*cpuProfile, profile.Bytes()); err != nil {
			return fmt.Errorf("the CPU profile: %w", err)
		}
		return nil
	}

	signalled, release := onInterrupt(stderr, "interrupted: finishing the current batch and writing the checkpoint (Ctrl-C again to quit at once)")
	defer release()
	ctx := signalled
	epochCount := *epochs
	if epochCount == 0 && !*resume {
		epochCount = defaultEpochs
	}
	trained := false // a batch was trained: the profile is worth writing
	sum, err := train.Run(ctx, train.Options{
		Train: *trainPath, MinWordCount: *minCount, MaxWords: *maxWords, Dev: *devPath, Out: *out, Preset: *preset, Config: cfg, Adam: adam, EMA: *ema, WordDropout: *wordDrop, Teacher: *teacher, TeacherWeight: *teacherWeight, TeacherTemperature: *teacherTemp, Init: *initPath, InitMember: *initMember, Hinge: *hinge, HoldOut: fold, Folds: folds, Epochs: epochCount, MaxBatchWords: *batchWords,
		Seed: *seed, Resume: *resume, Device: *device, Workers: *workers, Checkpoint: *ckpt, CheckpointEvery: *every, DType: dt,
		CreatedBy: "discspan train " + strings.Join(args, " "), Log: stdout, ProgressBar: true,
		ConfigFile: *configPath, AdamFile: *adamPath, ProfileFile: *cpuProfile, MaxTime: *maxTime,
		Progress: func(train.Progress) { trained = true },
	})
	if err != nil {
		if trained {
			if perr := writeProfile(); perr != nil {
				return errors.Join(err, perr)
			}
		}
		if sig := context.Cause(signalled); sig != nil && signalled.Err() != nil {
			fmt.Fprintf(stderr, "discspan train: %v\n", err)
			return sig // exit status 128 + the signal
		}
		return err
	}
	if err := writeProfile(); err != nil {
		return err
	}
	if sum.Interrupted {
		why := ""
		if sum.TimeLimit && signalled.Err() == nil {
			why = fmt.Sprintf(" at the time limit (--max-time %v)", *maxTime)
		}
		fmt.Fprintf(stdout, "stopped%s after %d epochs (%d updates); continue with --resume\n", why, sum.Epochs, sum.Updates)
		if sig := context.Cause(signalled); sig != nil && signalled.Err() != nil {
			return sig // exit status 128 + the signal: a script's next step does not run
		}
		return nil
	}
	fmt.Fprintf(stdout, "done: %d epochs, %d updates; best dev F1 %.2f (disc %.2f) at epoch %d, written to %s\n",
		sum.Epochs, sum.Updates, sum.BestDevF1, sum.BestDevDisc, sum.BestEpoch, sum.Out)
	return nil
}

// isFlagSet reports whether the command line set the named flag.
func isFlagSet(fs *flagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
