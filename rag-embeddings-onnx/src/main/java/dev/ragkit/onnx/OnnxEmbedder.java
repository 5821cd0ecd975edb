package dev.ragkit.onnx;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.ragkit.error.RagException;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.EmbeddingCheck;
import dev.ragkit.embedding.SimilarityScale;
import java.io.IOException;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * An in-process embedding model run by RagKit on the model and tokenizer files LangChain4j publishes: ONNX Runtime,
 * one text per run with one thread each, as many runs at once as there are cores. LangChain4j runs the same files
 * one text per task too, but each run with ONNX Runtime's default of a thread per core, so on a small machine the
 * runs' threads compete for the cores; one thread per run embeds 1.5–2.2× as fast on 2 cores and gives the same
 * vectors (cosine 1.00000 on SciFact texts). See docs/design-notes.md and docs/embedders.md.
 *
 * <p>Each text is cut to {@link #maxInputTokens()} word pieces (what the model reads; the indexer reports longer
 * chunks), pooled (mean of the tokens or the first token, as the model was trained) and scaled to length 1. Created
 * by {@link InProcessEmbedderProvider}. Thread-safe; {@link #close()} frees the model.
 */
public final class OnnxEmbedder implements Embedder, AutoCloseable {

    /** How a model turns its token vectors into one. */
    enum Pooling {
        /** The mean of the token vectors (sentence-transformers models such as all-MiniLM-L6-v2). */
        MEAN,
        /** The first ([CLS]) token's vector (bge). */
        CLS
    }

    private final String name;
    private final int dimension;
    private final int maxTokens;
    private final String queryInstruction;
    private final Pooling pooling;
    private final @Nullable SimilarityScale scale;
    private final OrtEnvironment environment;
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean typeIds;
    private final int threads;
    private final ExecutorService workers;

    private OnnxEmbedder(String name, int dimension, int maxTokens, String queryInstruction, Pooling pooling,
            @Nullable SimilarityScale scale, OrtSession session, HuggingFaceTokenizer tokenizer, int threads) {
        this.name = name;
        this.dimension = dimension;
        this.maxTokens = maxTokens;
        this.queryInstruction = queryInstruction;
        this.pooling = pooling;
        this.scale = scale;
        this.environment = OrtEnvironment.getEnvironment();
        this.session = session;
        this.tokenizer = tokenizer;
        this.typeIds = session.getInputNames().contains("token_type_ids");
        this.threads = threads;
        this.workers = Executors.newFixedThreadPool(Math.max(1, threads - 1), r -> {
            Thread t = new Thread(r, "ragkit-embed-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Loads a model from the bytes of its ONNX and tokenizer files (read from the class path or from the model's
     * artifact by {@link InProcessEmbedderProvider}).
     *
     * @param name             the embedder's name
     * @param model            the ONNX file's content
     * @param tokenizerJson    the HuggingFace tokenizer file's content
     * @param pooling          how the model pools
     * @param maxTokens        the most word pieces it reads, special tokens included
     * @param dimension        its vector length
     * @param queryInstruction what goes before queries, empty for nothing
     * @param scale            the model's similarity scale, or {@code null} to have retrieval measure it
     * @param threads          how many texts to embed at once
     * @return the embedder
     * @throws IllegalStateException when the model or the tokenizer cannot be loaded
     */
    static OnnxEmbedder load(String name, byte[] model, byte[] tokenizerJson, Pooling pooling, int maxTokens,
            int dimension, String queryInstruction, @Nullable SimilarityScale scale, int threads) {
        OrtSession session;
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            session = OrtEnvironment.getEnvironment().createSession(model, options);
        } catch (OrtException e) {
            throw new IllegalStateException("cannot load the ONNX model of " + name + ": " + e.getMessage(), e);
        }
        // One tokenizer, without the file's own truncation and padding: it counts whole texts, and embedOne cuts.
        HuggingFaceTokenizer tokenizer;
        try (InputStream in = new java.io.ByteArrayInputStream(tokenizerJson)) {
            tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of("padding", "false", "truncation", "false",
                    "addSpecialTokens", "true"));
        } catch (IOException | RuntimeException e) {
            closeQuietly(session);
            throw new IllegalStateException("cannot read the tokenizer of " + name + ": " + e, e);
        }
        return new OnnxEmbedder(name, dimension, maxTokens, queryInstruction, pooling, scale, session, tokenizer,
                threads);
    }

    private static void closeQuietly(OrtSession session) {
        try {
            session.close();
        } catch (OrtException e) {
            // the tokenizer's failure is the one to report
        }
    }

    @Override
    public float[][] embed(List<String> texts) {
        return run(EmbeddingCheck.texts(texts, "text"), "");
    }

    /**
     * Embeds queries after the model's query instruction, when it has one.
     *
     * @param queries the queries, not empty
     * @return one vector per query
     */
    @Override
    public float[][] embedQueries(List<String> queries) {
        return run(EmbeddingCheck.texts(queries, "query"), queryInstruction);
    }

    private float[][] run(List<String> texts, String prefix) {
        float[][] out = new float[texts.size()][];
        AtomicInteger next = new AtomicInteger();
        Runnable work = () -> {
            for (int i = next.getAndIncrement(); i < out.length; i = next.getAndIncrement()) {
                out[i] = embedOne(prefix + texts.get(i));
            }
        };
        List<Future<?>> helpers = new ArrayList<>();
        for (int t = 1; t < Math.min(threads, texts.size()); t++) {
            helpers.add(workers.submit(work));
        }
        RuntimeException failure = null;
        try {
            work.run();
        } catch (RuntimeException e) {
            failure = e;
            next.set(out.length);                               // the helpers stop after their current text
        }
        for (Future<?> helper : helpers) {
            try {
                helper.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
                            : new RagException("embedding with " + name + " failed: " + e.getCause(), e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RagException("interrupted while embedding with " + name, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return out;
    }

    private float[] embedOne(String text) {
        long[] ids = cut(tokenizer.encode(text).getIds());
        long[] mask = new long[ids.length];
        java.util.Arrays.fill(mask, 1L);
        long[] shape = {1, ids.length};
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(environment, LongBuffer.wrap(ids), shape));
            inputs.put("attention_mask", OnnxTensor.createTensor(environment, LongBuffer.wrap(mask), shape));
            if (typeIds) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(environment,
                        LongBuffer.wrap(new long[ids.length]), shape));
            }
            try (OrtSession.Result result = session.run(inputs)) {
                OnnxValue value = result.get(0);
                float[][] tokens = ((float[][][]) value.getValue())[0];
                return pool(tokens);
            }
        } catch (OrtException e) {
            throw new RagException("embedding a text with " + name + " failed: " + e.getMessage(), e);
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    /** The first {@code maxTokens} word pieces, the last of them the closing special token, as truncation keeps. */
    private long[] cut(long[] ids) {
        if (ids.length <= maxTokens) {
            return ids;
        }
        long[] cut = java.util.Arrays.copyOf(ids, maxTokens);
        cut[maxTokens - 1] = ids[ids.length - 1];
        return cut;
    }

    private float[] pool(float[][] tokens) {
        float[] vector = new float[dimension];
        if (tokens.length == 0 || tokens[0].length != dimension) {
            throw new RagException(name + " returned token vectors of dimension "
                    + (tokens.length == 0 ? 0 : tokens[0].length) + ", not " + dimension);
        }
        if (pooling == Pooling.CLS) {
            System.arraycopy(tokens[0], 0, vector, 0, dimension);
        } else {
            for (float[] token : tokens) {
                for (int d = 0; d < dimension; d++) {
                    vector[d] += token[d];
                }
            }
        }
        double norm = 0;
        for (float v : vector) {
            norm += (double) v * v;
        }
        norm = Math.sqrt(norm);
        if (!(norm > 0) || !Double.isFinite(norm)) {
            throw new RagException(name + " returned a vector without a direction (norm " + norm + ")");
        }
        for (int d = 0; d < dimension; d++) {
            vector[d] = (float) (vector[d] / norm);
        }
        return vector;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int maxInputTokens() {
        return maxTokens;
    }

    @Override
    public @Nullable SimilarityScale similarityScale() {
        return scale;
    }

    @Override
    public int inputTokens(String text) {
        return tokenizer.encode(Objects.requireNonNull(text, "text")).getIds().length;
    }

    /** @return the text put before queries, empty for none */
    public String queryInstruction() {
        return queryInstruction;
    }

    /** @return how many texts are embedded at once */
    public int threads() {
        return threads;
    }

    /** Frees the model and the worker threads. */
    @Override
    public void close() {
        workers.shutdownNow();
        try {
            session.close();
        } catch (OrtException e) {
            throw new RagException("cannot close the ONNX session of " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "OnnxEmbedder[" + name + ", dimension " + dimension + ", reads " + maxTokens + " tokens, " + threads
                + " threads" + (queryInstruction.isEmpty() ? "" : ", query instruction") + "]";
    }
}
