package retention

import "testing"

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	for _, c := range []Config{{Days: -1}, {UploadDays: -1}, {MaxJobs: -1}} {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", c)
		}
	}
	if d := DefaultConfig(); d.Days != 30 || d.MaxJobs != 10000 || d.UploadDays != 0 {
		t.Errorf("DefaultConfig() = %+v", d)
	}
}
