package hooks

import (
	"reflect"
	"testing"
)

// config.yaml's otel: names OTEL_* variables (others are ignored); the
// environment's own win over it.
func TestOTelEnv(t *testing.T) {
	c := ParseConfig([]byte("otel:\n  OTEL_EXPORTER_OTLP_ENDPOINT: http://c:4318\n  OTEL_SERVICE_NAME: st-a\n  PATH: /evil\n"))
	if want := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SERVICE_NAME": "st-a"}; !reflect.DeepEqual(c.OTel, want) {
		t.Errorf("otel: = %v, want %v", c.OTel, want)
	}
	for _, tt := range []struct {
		env, config, want map[string]string
	}{
		{nil, nil, map[string]string{}},
		{map[string]string{"OTEL_SERVICE_NAME": "from-env"}, c.OTel,
			map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SERVICE_NAME": "from-env"}},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://e:4318"}, nil, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://e:4318"}},
	} {
		if got := otelEnv(tt.env, tt.config); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("otelEnv(%v, %v) = %v, want %v", tt.env, tt.config, got, tt.want)
		}
	}
	if c.OTel["OTEL_SERVICE_NAME"] != "st-a" {
		t.Errorf("otelEnv changed the config's map")
	}
}
