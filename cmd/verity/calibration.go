package main

import (
	"fmt"
	"os"

	"github.com/verity-fc/verity/scoring"
)

// loadCalibration returns the calibrator that scoring.calibration names:
// "builtin" the shipped one, "off" (or empty) none, so that the fixed
// sigmoid scores, and otherwise the calibration file at that path.
func loadCalibration(setting string) (scoring.Calibrator, error) {
	switch setting {
	case "", "off":
		return nil, nil
	case "builtin":
		c, err := scoring.DefaultCalibration()
		if err != nil {
			return nil, fmt.Errorf("scoring.calibration: %w", err)
		}
		return c, nil
	}
	f, err := os.Open(setting)
	if err != nil {
		return nil, fmt.Errorf("scoring.calibration: %w", err)
	}
	defer f.Close()
	c, err := scoring.ReadCalibration(f)
	if err != nil {
		return nil, fmt.Errorf("scoring.calibration %s: %w", setting, err)
	}
	return c, nil
}
