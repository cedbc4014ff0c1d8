package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/discspan/discspan/chart/decode"
	"github.com/discspan/discspan/chart/tree"
	"github.com/discspan/discspan/chart/treebank"
	"github.com/discspan/discspan/internal/atomicfile"
	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/parser"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/train"
	"github.com/discspan/discspan/weights"
)

func runEnsemble(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ensemble", "--out W [--dtype I8] [--dev FILE] MODEL.safetensors [MODEL.safetensors...] | --choose K --dev FILE [--dtype I4] MODEL.safetensors...", stdout)
	out := fs.String("out", "", "output weights file holding every model (an ensemble: parsers average their scores; one model: an ordinary file, built with the same options)")
	dtype := fs.String("dtype", "I8", "how the output stores weights: F32, F16, I8 or I4 (I8 halves F16's size and, for the tiny preset, loses no dev F1; I4 stores matrices in 4 bits, about half I8's size, and loses some)")
	devPath := fs.String("dev", "", "development treebank: report the dev F1 of every model and of the ensemble (n3), and store the ensemble's")
	workers := fs.Int("workers", 0, "goroutines of dev parsing (default: all cores)")
	calibrate := fs.String("calibrate", "", "decoder variants, separated by commas (e.g. n3,n6), whose disc or gap score offset is chosen on --dev so that the number of discontinuous constituents predicted matches gold; stored in the file and applied by every parser of it")
	trainingData := fs.String("training-data", "", "describe the training data in the file's model card (default: the first model's description)")
	language := fs.String("language", "", "the language of the training data, for the model card (e.g. Dutch)")
	testF1 := fs.Float64("test-f1", 0, "the ensemble's labelled test F1 (n3), measured beforehand, for the model card; 0: not stored")
	choose := fs.Int("choose", 0, "instead of writing a file, report the dev F1 (n3) of every ensemble of K of the models, best first, each as a file of them with the same --dtype and --drop-labels would score (every model's dev scores are kept in memory; at most 500 combinations)")
	dropLabels := fs.String("drop-labels", "", "labels, separated by commas, that the ensemble leaves out (never predicted; 3*(label_mlp+1)^2 weights fewer per label and model), e.g. labels seen once or twice in training")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	if *choose < 0 || (*choose == 0 && isFlagSet(fs, "choose")) {
		return fmt.Errorf("%w: --choose %d: want a number of models", errUsage, *choose)
	}
	if *testF1 < 0 || *testF1 > 100 || *testF1 != *testF1 {
		return fmt.Errorf("%w: --test-f1 %g: want an F1 in [0, 100] (0: not stored)", errUsage, *testF1)
	}
	if *calibrate != "" {
		for _, name := range strings.Split(*calibrate, ",") {
			if _, err := decode.ParseVariant(strings.TrimSpace(name)); err != nil {
				return fmt.Errorf("%w: --calibrate: %v", errUsage, err)
			}
		}
	}
	switch {
	case *choose != 0 && (*out != "" || *calibrate != "" || *testF1 != 0):
		return fmt.Errorf("%w: --choose writes no file: it takes no --out, --calibrate or --test-f1", errUsage)
	case *choose != 0 && *devPath == "":
		return fmt.Errorf("%w: --choose needs --dev", errUsage)
	case *choose == 0 && *out == "":
		return fmt.Errorf("%w: --out FILE is required", errUsage)
	case len(rest) < 1:
		return fmt.Errorf("%w: want at least one weights file", errUsage)
	case *calibrate != "" && *devPath == "":
		return fmt.Errorf("%w: --calibrate needs --dev", errUsage)
	}
	if *out != "" {
		// The file is written after everything is read, but a model
		// replaced by its quantised copy would be lost for good.
		inputs := append([]string{*devPath}, rest...)
		for k, in := range inputs {
			if in != "" && atomicfile.SameFile(*out, in) {
				what := "one of the models"
				if k == 0 {
					what = "the --dev treebank"
				}
				return fmt.Errorf("%w: --out %s is %s: writing the ensemble would overwrite it", errUsage, *out, what)
			}
		}
		if err := checkWeightsOut("out", *out); err != nil {
			return err
		}
		// A folder that is missing or read-only is said now, not after
		// the evaluation and calibration.
		if err := atomicfile.Check(*out); err != nil {
			return fmt.Errorf("ensemble: --out: %w", err)
		}
	}
	dt, err := weights.ParseDType(*dtype)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	// The models are counted from the headers first: loading more than an
	// ensemble may hold would spend the memory before the count refused
	// them (100 files ran out of memory first).
	counted := 0
	for _, path := range rest {
		if f, err := weights.ReadMeta(path); err == nil {
			counted += max(1, f.Ensemble)
		}
	}
	if counted > weights.MaxMembers {
		return fmt.Errorf("%w: %d models in %d files, at most %d", errUsage, counted, len(rest), weights.MaxMembers)
	}
	ms, err := readModels(rest...)
	if err != nil {
		return err
	}
	first, members, names := ms.File, ms.Params(), ms.Names
	if *choose > len(members) {
		return fmt.Errorf("%w: --choose %d of %d models", errUsage, *choose, len(members))
	}
	mixed := false // --choose: models of several sizes
	for k, p := range members[1:] {
		if p.Config().NoDropout() != members[0].Config().NoDropout() {
			if *choose != 0 {
				mixed = true
				continue
			}
			return fmt.Errorf("%w: %s has network sizes %+v, %s %+v: an ensemble's models share one configuration",
				errUsage, names[k+1], p.Config(), names[0], members[0].Config())
		}
	}
	if len(members) > weights.MaxMembers {
		return fmt.Errorf("%w: %d models, at most %d", errUsage, len(members), weights.MaxMembers)
	}
	meta := first.Meta
	// The vocabulary with every label of the files (parser.ReadFiles gives
	// a file written without some labels the others' back).
	meta.Vocab, meta.Config.Labels = ms.Vocab, len(ms.Vocab.Labels)
	if *dropLabels != "" {
		if members, meta.Vocab, err = withoutLabels(members, meta.Vocab, strings.Split(*dropLabels, ",")); err != nil {
			return fmt.Errorf("%w: --drop-labels: %v", errUsage, err)
		}
		meta.Config.Labels = members[0].Config().Labels
		fmt.Fprintf(stdout, "left out %d labels: %s\n", len(strings.Split(*dropLabels, ",")), *dropLabels)
	}
	meta.Created, meta.TestF1 = time.Time{}, nil
	meta.CreatedBy = "discspan ensemble " + strings.Join(args, " ")
	meta.Extra = map[string]string{"ensemble_of": strings.Join(names, "; ")}
	if *trainingData != "" {
		meta.TrainingData = *trainingData
	} else if err := describeMembers(&meta, rest); err != nil {
		return err
	}
	if *language != "" {
		meta.Extra[weights.LanguageKey] = *language
	}
	if *testF1 != 0 {
		meta.TestF1 = testF1
	}
	if *devPath != "" {
		gold, err := treebank.ReadFile(*devPath)
		if err != nil {
			return err
		}
		if len(gold) == 0 {
			return fmt.Errorf("--dev %s: no trees", *devPath)
		}
		// Measure and calibrate the models as the file stores them (dt
		// rounds every weight), not the float ones read: the recorded dev
		// F1 and offsets are then those of what every reader parses with.
		if *choose != 0 {
			models, err := eachAsStored(members, meta, dt)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "the models as stored (%s):\n", dt)
			if mixed {
				fmt.Fprintln(stdout, "(models of several sizes: an ensemble of them is parsed with `discspan parse --weights A,B,...`; one file holds models of one size)")
			}
			names, err := memberNames(rest)
			if err != nil {
				return err
			}
			return chooseEnsembles(stdout, *devPath, gold, models, meta.Vocab, names, *choose, *workers)
		}
		models, err := asStored(members, meta, dt)
		if err != nil {
			return err
		}
		ens, err := meanParser(models, meta.Vocab)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "the models as stored (%s):\n", dt)
		f1, disc, err := ensembleDev(stdout, *devPath, gold, ens, models, rest, *workers)
		if err != nil {
			return err
		}
		meta.DevF1, meta.DevDiscF1 = f1, disc
		if *calibrate != "" {
			cal, err := calibrateEnsemble(stdout, stderr, *devPath, gold, ens, strings.Split(*calibrate, ","), *workers)
			if err != nil {
				return err
			}
			meta.Extra[parser.CalibrationKey] = cal.String()
		}
	} else {
		meta.DevF1, meta.DevDiscF1 = 0, 0 // unmeasured: the models' own figures are not the ensemble's
	}
	if err := weights.WriteEnsembleFile(*out, members, meta, dt); err != nil {
		return err
	}
	st, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d models, %s, %d bytes\n", *out, len(members), dt, st.Size())
	return nil
}

// asStored returns the members' models as a file of dtype dt gives them
// back to its readers: written in memory and read again.
func asStored(members []*network.Params, meta weights.Meta, dt weights.DType) ([]*network.Model, error) {
	var buf bytes.Buffer
	if err := weights.WriteEnsemble(&buf, members, meta, dt); err != nil {
		return nil, err
	}
	f, err := weights.Read(buf.Bytes(), "the ensemble as stored")
	if err != nil {
		return nil, err
	}
	return f.Models()
}

// eachAsStored is asStored for each model alone, so that models of
// several sizes (ensemble --choose) are each stored as their own file
// would store them.
func eachAsStored(members []*network.Params, meta weights.Meta, dt weights.DType) ([]*network.Model, error) {
	var models []*network.Model
	for _, p := range members {
		m := meta
		m.Config = p.Config()
		one, err := asStored([]*network.Params{p}, m, dt)
		if err != nil {
			return nil, err
		}
		models = append(models, one...)
	}
	return models, nil
}

// meanParser returns a parser of the models whose Scorer averages their
// scores on the CPU (scorer.MeanCPU).
func meanParser(models []*network.Model, v *network.Vocab) (*parser.Parser, error) {
	p, err := parser.New(models[0], v)
	if err != nil {
		return nil, err
	}
	p.Scorer = scorer.MeanCPU(models)
	return p, nil
}

// ensembleDev parses the dev treebank gold (read from devPath) with every
// model alone and with the ensemble ens, prints their F1, and returns the
// ensemble's F1 and disc. F1.
func ensembleDev(w io.Writer, devPath string, gold []*tree.Tree, ens *parser.Parser, models []*network.Model, paths []string, workers int) (f1, disc float64, err error) {
	ctx := context.Background()
	row := func(name string, p *parser.Parser) (float64, float64, error) {
		res, err := train.EvaluateParser(ctx, p, gold, train.DevVariant, workers)
		if err != nil {
			return 0, 0, err
		}
		fmt.Fprintf(w, "  %-40s dev F1 %6.2f  disc. F1 %6.2f\n", name, res.All.F1, res.All.DiscF1)
		return res.All.F1, res.All.DiscF1, nil
	}
	fmt.Fprintf(w, "%s, %s decoder:\n", devPath, train.DevVariant)
	if len(models) == 1 { // the model alone is the "ensemble"
		name := "model 1"
		if len(paths) == 1 {
			name = paths[0]
		}
		return row(name, ens)
	}
	for k, m := range models {
		p, err := parser.New(m, ens.Vocab)
		if err != nil {
			return 0, 0, err
		}
		name := fmt.Sprintf("model %d", k+1)
		if len(models) == len(paths) {
			name = paths[k]
		}
		if _, _, err := row(name, p); err != nil {
			return 0, 0, err
		}
	}
	return row(fmt.Sprintf("ensemble of %d", len(models)), ens)
}

// withoutLabels returns the members and the vocabulary without the named
// labels (see network.Params.WithoutLabels).
func withoutLabels(members []*network.Params, v *network.Vocab, names []string) ([]*network.Params, *network.Vocab, error) {
	var drop []int
	for _, name := range names {
		id, ok := v.LabelID(strings.TrimSpace(name))
		if !ok {
			return nil, nil, fmt.Errorf("no label %q in the models' vocabulary", name)
		}
		if slices.Contains(drop, id) {
			return nil, nil, fmt.Errorf("%w: --drop-labels names %s twice", errUsage, strings.TrimSpace(name))
		}
		drop = append(drop, id)
	}
	out := make([]*network.Params, len(members))
	for i, p := range members {
		q, err := p.WithoutLabels(drop)
		if err != nil {
			return nil, nil, err
		}
		out[i] = q
	}
	nv, err := v.WithoutLabels(drop)
	if err != nil {
		return nil, nil, err
	}
	return out, nv, nil
}

// calibrateEnsemble chooses the discontinuity offsets of each variant on
// the dev treebank gold (read from devPath) for the ensemble ens's mean
// scores (parser.Calibrate) and prints every trial.
func calibrateEnsemble(w, stderr io.Writer, devPath string, gold []*tree.Tree, ens *parser.Parser, variants []string, workers int) (parser.Calibration, error) {
	cal := parser.Calibration{}
	for _, name := range variants {
		variant, err := decode.ParseVariant(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("%w: --calibrate: %v", errUsage, err)
		}
		// Each trial decodes the dev set; say so before the first.
		fmt.Fprintf(stderr, "discspan ensemble: calibrating %s on %s (each trial parses its %d sentences)\n", variant, devPath, len(gold))
		o, trials, err := ens.Calibrate(context.Background(), gold, variant, workers)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(w, "calibration of %s on %s:\n%s  chosen: disc %+.3f, gap %+.3f\n", variant, devPath, parser.FormatTrials(variant, trials), o.Disc, o.Gap)
		cal[variant.String()] = o
	}
	return cal, nil
}

// describeMembers gives the model card of an ensemble of the files at
// paths the training data of all of them ("a.dbr + b.dbr" where they
// differ; the first file's was taken before) and an epoch count only when
// they agree (0, unknown, otherwise).
func describeMembers(meta *weights.Meta, paths []string) error {
	var data []string
	epochs := -1
	for _, p := range paths {
		f, err := weights.ReadMeta(p)
		if err != nil {
			return err
		}
		if d := f.Meta.TrainingData; d != "" && !slices.Contains(data, d) {
			data = append(data, d)
		}
		switch {
		case epochs == -1:
			epochs = f.Meta.Epochs
		case epochs != f.Meta.Epochs:
			epochs = 0
		}
	}
	meta.TrainingData = strings.Join(data, " + ")
	meta.Epochs = max(epochs, 0)
	return nil
}
