package parser

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/discspan/discspan/network"
	"github.com/discspan/discspan/scorer"
	"github.com/discspan/discspan/weights"
)

// Models are the models of one or more weights files trained with one
// vocabulary: a single model, an ensemble file's members, or several files
// whose scores are averaged. This file is the one place where model files
// are read for parsing (the CLI's parse, bench score and ensemble, the
// browser's engine).
type Models struct {
	// File is the first file read; its metadata describes the weights.
	File *weights.File
	// Vocab is the vocabulary every model was trained with.
	Vocab *network.Vocab
	// Models are every file's models in order (an ensemble file gives all
	// its members); each one's sizes agree with Vocab.
	Models []*network.Model
	// Names names every model: its file and the file's tensor checksum.
	Names []string
	// Name names the weights: the embedded default model, or the paths.
	Name string
	// Calibration is the first file's discontinuity calibration (nil when
	// it has none).
	Calibration Calibration
}

// ErrVocabulary is wrapped by ReadFiles' error when two files were trained
// with different vocabularies.
var ErrVocabulary = errors.New("weights trained with different vocabularies")

// ReadFiles reads weights files trained with one vocabulary (see
// weights.ReadFile); no path means the embedded default model
// (weights.Default). A file written without some labels of another
// (ensemble --drop-labels) joins it: the vocabulary is the file's with the
// most labels, and the models of a file that lacks some of them score them
// AbsentLabelScore below their span score (network.Params.WithLabels), so
// that the ensemble never predicts a label one of its files left out. A
// file with another vocabulary gives an error wrapping ErrVocabulary.
func ReadFiles(paths ...string) (*Models, error) {
	if len(paths) == 0 {
		f, err := weights.Default()
		if err != nil {
			return nil, fmt.Errorf("parser: %w", err)
		}
		return fromFiles(weights.DefaultName+" (embedded)", []*weights.File{f}, []string{weights.DefaultName})
	}
	files := make([]*weights.File, len(paths))
	for k, path := range paths {
		f, err := weights.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("parser: %w", err)
		}
		files[k] = f
	}
	return fromFiles(strings.Join(paths, ","), files, paths)
}

// WithLabelsOf returns the models, trained with vocabulary own, scoring
// the labels of v: own's labels must be v's with some left out
// (Vocab.LabelsIn), and those score AbsentLabelScore below the span score
// (network.Params.WithLabels). Models of own = v are returned as they are.
func WithLabelsOf(models []*network.Model, own, v *network.Vocab) ([]*network.Model, error) {
	at, err := own.LabelsIn(v)
	if err != nil {
		return nil, err
	}
	if len(at) == len(v.Labels) {
		return models, nil
	}
	out := make([]*network.Model, len(models))
	for i, m := range models {
		q, err := m.Params.WithLabels(at, len(v.Labels), AbsentLabelScore)
		if err != nil {
			return nil, err
		}
		out[i] = &network.Model{Params: q, Workers: m.Workers}
	}
	return out, nil
}

// AbsentLabelScore is what a model scores, below its span score, the
// labels its file left out when it joins files that have them (ReadFiles):
// far enough below every other class that they get no probability.
const AbsentLabelScore = -1e4

// Read reads one weights file held in data (see weights.Read); name names
// it in errors.
func Read(data []byte, name string) (*Models, error) {
	f, err := weights.Read(data, name)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	return fromFiles(name, []*weights.File{f}, []string{name})
}

// readFirst is Read converting model 0 only (weights.ReadMember): Models
// holds that one, File.Ensemble counts the file's models, and lazy gives
// the others when asked for.
func readFirst(data []byte, name string) (*Models, *lazyModels, error) {
	f, err := weights.ReadMember(data, name, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("parser: %w", err)
	}
	ms, err := fromFiles(name, []*weights.File{f}, []string{name})
	if err != nil {
		return nil, nil, err
	}
	return ms, newLazyModels(data, name, ms.Models[0], f.Ensemble), nil
}

// ReadMember reads model k (counted from 0) of the weights file held in
// data, checked like Read's but with only that model's parameters
// converted (weights.ReadMember): an ensemble's model scoring in a thread
// of its own holds that one.
func ReadMember(data []byte, name string, k int) (*network.Model, error) {
	f, err := weights.ReadMember(data, name, k)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	models, err := f.Models()
	if err != nil {
		return nil, fmt.Errorf("parser: %s: %w", name, err)
	}
	if _, err := New(models[0], f.Meta.Vocab); err != nil {
		return nil, fmt.Errorf("%s, model %d: %w", name, k+1, err)
	}
	return models[0], nil
}

// fromFiles gathers the files' models, checking their sizes against the
// vocabulary of the file with the most labels, and gives the models of
// files that lack some of its labels those labels (see ReadFiles).
func fromFiles(name string, files []*weights.File, paths []string) (*Models, error) {
	cal, err := CalibrationOf(files[0].Meta)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", paths[0], err)
	}
	widest := 0
	for k, f := range files {
		if len(f.Meta.Vocab.Labels) > len(files[widest].Meta.Vocab.Labels) {
			widest = k
		}
	}
	ms := &Models{File: files[0], Vocab: files[widest].Meta.Vocab, Name: name, Calibration: cal}
	for k, f := range files {
		if _, err := f.Meta.Vocab.LabelsIn(ms.Vocab); err != nil {
			return nil, fmt.Errorf("parser: %s and %s: %w: %v", paths[k], paths[widest], ErrVocabulary, err)
		}
		models, err := f.Models()
		if err != nil {
			return nil, fmt.Errorf("parser: %s: %w", paths[k], err)
		}
		if models, err = WithLabelsOf(models, f.Meta.Vocab, ms.Vocab); err != nil {
			return nil, fmt.Errorf("parser: %s: %w", paths[k], err)
		}
		for _, m := range models {
			if _, err := New(m, ms.Vocab); err != nil {
				return nil, fmt.Errorf("%s, model %d: %w", paths[k], len(ms.Models)+1, err)
			}
			ms.Models = append(ms.Models, m)
			ms.Names = append(ms.Names, fmt.Sprintf("%s (tensors %s)", filepath.Base(paths[k]), f.TensorsSHA256[:12]))
		}
	}
	return ms, nil
}

// Params returns every model's parameters.
func (ms *Models) Params() []*network.Params {
	out := make([]*network.Params, len(ms.Models))
	for k, m := range ms.Models {
		out[k] = m.Params
	}
	return out
}

// Parser returns a parser over the models: a single model's CPU forward
// pass, or an ensemble whose Scorer averages its models on the CPU
// (scorer.MeanCPU; Model is then the first of them).
func (ms *Models) Parser() (*Parser, error) {
	p, err := New(ms.Models[0], ms.Vocab)
	if err != nil {
		return nil, err
	}
	p.Calibration = ms.Calibration
	if len(ms.Models) == 1 {
		return p, nil
	}
	p.Scorer = scorer.MeanCPU(ms.Models)
	return p, nil
}

// Load reads weights files (see ReadFiles) and returns their parser.
func Load(paths ...string) (*Parser, error) {
	ms, err := ReadFiles(paths...)
	if err != nil {
		return nil, err
	}
	return ms.Parser()
}

// Describe returns the language of the model held in data (see
// weights.Language) and a check of whether its vocabulary has a word,
// reading the header only; "" and a check that knows every word when the
// header cannot be read (the engine's load then says why).
func Describe(data []byte, name string) (language string, known func(string) bool) {
	f, err := weights.ReadMetaBytes(data, name)
	if err != nil {
		return "", func(string) bool { return true }
	}
	return weights.Language(f.Meta), weights.Knows(f.Meta.Vocab)
}
