/**
 * Reading documents: the {@link dev.ragkit.parse.DocumentParser} SPI, the markdown, text and code parsers, front matter, content sniffing, and what a parsed document holds.
 */
@NullMarked
package dev.ragkit.parse;

import org.jspecify.annotations.NullMarked;
