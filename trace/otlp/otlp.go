// Package otlp sends traces (package trace) over OTLP/HTTP with the
// OpenTelemetry SDK. Only st-trace links it: the SDK is large.
package otlp

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	oteltrace "go.opentelemetry.io/otel/trace"

	"github.com/smalltalk-go/st/trace"
)

// sendTimeout bounds one export, retries included: a collector that does
// not answer in time gets the traces at the next export instead.
const sendTimeout = 20 * time.Second

// Send exports traces over OTLP/HTTP to the endpoint the standard
// OTEL_EXPORTER_OTLP_* variables name (the exporter reads them itself:
// endpoint, traces endpoint, headers, timeout, compression), as the
// service OTEL_SERVICE_NAME names (default st).
//
// An error wraps trace.ErrTooLarge when the collector will not take
// these traces as they are, whatever it is sent later: it answered 413,
// the request is over the exporter's own size cap (it never went out),
// or a big request's upload did not end within the deadline.
func Send(ctx context.Context, traces []trace.Trace) error {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithRetry(otlptracehttp.RetryConfig{
		Enabled: true, InitialInterval: 500 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: 5 * time.Second}))
	if err != nil {
		return err
	}
	defer func() { _ = exp.Shutdown(context.Background()) }() // nothing is buffered: ExportSpans sent or failed
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", "st")), resource.WithFromEnv())
	if err != nil {
		return err
	}
	var spans []sdktrace.ReadOnlySpan
	for _, tr := range traces {
		spans = append(spans, stubs(tr, res)...)
	}
	if err := exp.ExportSpans(ctx, spans); err != nil {
		if tooLarge(ctx, err, traces) {
			return fmt.Errorf("%w: %v", trace.ErrTooLarge, err)
		}
		return err
	}
	return nil
}

// bigUpload is the size (of the traces as JSON, near their protobuf's)
// from which an upload cut by the deadline is taken as too large rather
// than as a collector out of reach.
const bigUpload = 1 << 20

// tooLarge reports whether an export failed for its size: the collector
// answered 413 (the exporter gives no typed error: its message names the
// status), the exporter refused a request over its cap before sending
// it, or a big upload ran out of time.
func tooLarge(ctx context.Context, err error, traces []trace.Trace) bool {
	msg := err.Error()
	switch {
	case strings.Contains(msg, " 413 "), strings.Contains(msg, "request body too large"):
		return true
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		data, _ := json.Marshal(traces) // plain data: it cannot fail
		return len(data) >= bigUpload
	}
	return false
}

// scope names st as the spans' instrumentation.
var scope = instrumentation.Scope{Name: "github.com/smalltalk-go/st/trace"}

// stubs are tr's spans as the SDK's read-only spans, with st's IDs.
func stubs(tr trace.Trace, res *resource.Resource) []sdktrace.ReadOnlySpan {
	tid := traceID(tr.TraceID)
	out := make([]sdktrace.ReadOnlySpan, 0, len(tr.Spans))
	for _, s := range tr.Spans {
		stub := tracetest.SpanStub{
			Name:                 s.Name,
			SpanContext:          spanContext(tid, s.ID),
			SpanKind:             oteltrace.SpanKindInternal,
			StartTime:            s.Start,
			EndTime:              s.End,
			Attributes:           attrs(s.Attrs),
			Resource:             res,
			InstrumentationScope: scope,
		}
		if s.Kind == "client" {
			stub.SpanKind = oteltrace.SpanKindClient
		}
		if s.Parent != "" {
			stub.Parent = spanContext(tid, s.Parent)
		}
		for _, ev := range s.Events {
			stub.Events = append(stub.Events, sdktrace.Event{Name: ev.Name, Time: ev.At, Attributes: attrs(ev.Attrs)})
		}
		if s.Error != "" {
			stub.Status = sdktrace.Status{Code: codes.Error, Description: s.Error}
		}
		out = append(out, stub.Snapshot())
	}
	return out
}

func traceID(h string) oteltrace.TraceID {
	var id oteltrace.TraceID
	_, _ = hex.Decode(id[:], []byte(h)) // trace.Build writes 32 hex digits
	return id
}

func spanContext(tid oteltrace.TraceID, h string) oteltrace.SpanContext {
	var sid oteltrace.SpanID
	_, _ = hex.Decode(sid[:], []byte(h)) // trace.Build writes 16 hex digits
	return oteltrace.NewSpanContext(oteltrace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: oteltrace.FlagsSampled})
}

func attrs(in []trace.Attr) []attribute.KeyValue {
	out := make([]attribute.KeyValue, 0, len(in))
	for _, a := range in {
		switch a.Type {
		case "int":
			out = append(out, attribute.Int64(a.Key, a.Int))
		case "bool":
			out = append(out, attribute.Bool(a.Key, a.Bool))
		default:
			out = append(out, attribute.String(a.Key, a.Str))
		}
	}
	return out
}
