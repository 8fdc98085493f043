package dashboard

import (
	"bytes"
	"html/template"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// markdownMax caps the Markdown rendered for one page; longer text is
// cut (at a line end) so a huge now.md cannot stall the server.
const markdownMax = 512 << 10

// newMarkdown is goldmark with GitHub's tables, task lists,
// strikethrough and autolinks. Its HTML renderer is left in its safe
// default: raw HTML in the source is dropped (rendered as a comment) and
// links or images with javascript:, vbscript:, file: or non-image data:
// URLs are emptied, so agent-written text cannot inject markup.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM))
}

// renderMarkdown renders agent-written Markdown to HTML safe to embed.
func renderMarkdown(md goldmark.Markdown, src string) template.HTML {
	b := []byte(src)
	if len(b) > markdownMax {
		b = b[:markdownMax]
		if i := bytes.LastIndexByte(b, '\n'); i > 0 {
			b = b[:i+1]
		}
	}
	var out bytes.Buffer
	if err := md.Convert(b, &out); err != nil {
		// goldmark only fails on writer errors; show the text escaped.
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(out.String()) // #nosec: goldmark without WithUnsafe escapes raw HTML
}
