package treebank

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is a treebank file format.
type Format int

// The formats. PTB is read only.
const (
	Unknown     Format = iota
	Export             // NEGRA export, versions 3 and 4
	Discbracket        // disco-dop discbracket, one tree per line
	PTB                // Penn Treebank style brackets (read only)
	TigerXML           // TIGER-XML
)

// String returns the name of the format.
func (f Format) String() string {
	switch f {
	case Export:
		return "export"
	case Discbracket:
		return "discbracket"
	case PTB:
		return "ptb"
	case TigerXML:
		return "tigerxml"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the format named name (see Format.String; case does
// not matter).
func ParseFormat(name string) (Format, error) {
	for _, f := range []Format{Export, Discbracket, PTB, TigerXML} {
		if strings.EqualFold(name, f.String()) {
			return f, nil
		}
	}
	return Unknown, fmt.Errorf("treebank: unknown format %q (want export, discbracket, ptb or tigerxml)", name)
}

// FormatOf returns the format of a file from its extension (case does not
// matter): .export is Export; .discbracket and .dbr are Discbracket; .mrg,
// .ptb, .bracket and .psd are PTB; .xml and .tigerxml are TigerXML. Other
// extensions give an error.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".export":
		return Export, nil
	case ".discbracket", ".dbr":
		return Discbracket, nil
	case ".mrg", ".ptb", ".bracket", ".psd":
		return PTB, nil
	case ".xml", ".tigerxml":
		return TigerXML, nil
	}
	return Unknown, fmt.Errorf("treebank: %s: unknown file extension (want .export, .discbracket, .dbr, .mrg, .ptb, .bracket, .psd, .xml or .tigerxml)", path)
}
