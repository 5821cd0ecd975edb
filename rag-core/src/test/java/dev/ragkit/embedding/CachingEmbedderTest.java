package dev.ragkit.embedding;

import dev.ragkit.testing.RecordingEmbedder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.RagException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class CachingEmbedderTest {

    private final RecordingEmbedder model = new RecordingEmbedder("fake-bow", 16);
    private final CachingEmbedder cached = CachingEmbedder.of(model);

    @Test
    void embed_coldCache_sendsAllTextsInOneCall() {
        float[][] vectors = cached.embed(List.of("alpha beta", "gamma", "delta"));

        assertThat(model.calls()).containsExactly(List.of("alpha beta", "gamma", "delta"));
        assertThat(vectors).hasDimensions(3, 16);
        assertThat(vectors[0]).containsExactly(model.vector("alpha beta"));
        assertThat(vectors[2]).containsExactly(model.vector("delta"));
        assertThat(cached.missCount()).isEqualTo(3);
        assertThat(cached.hitCount()).isZero();
    }

    @Test
    void embed_sameTextsAgain_answersFromCacheWithoutCallingDelegate() {
        cached.embed(List.of("alpha", "beta"));

        float[][] again = cached.embed(List.of("beta", "alpha"));

        assertThat(model.calls()).hasSize(1);
        assertThat(again[0]).containsExactly(model.vector("beta"));
        assertThat(again[1]).containsExactly(model.vector("alpha"));
        assertThat(cached.hitCount()).isEqualTo(2);
    }

    @Test
    void embed_partlyCached_sendsOnlyMissingTextsInOneCallAndKeepsRequestOrder() {
        cached.embed(List.of("b", "d"));

        float[][] vectors = cached.embed(List.of("a", "b", "c", "d", "e"));

        assertThat(model.calls()).containsExactly(List.of("b", "d"), List.of("a", "c", "e"));
        for (int i = 0; i < 5; i++) {
            assertThat(vectors[i]).containsExactly(model.vector(String.valueOf((char) ('a' + i))));
        }
    }

    @Test
    void embed_duplicatesInOneBatch_embedsOnceAndAnswersEveryPosition() {
        float[][] vectors = cached.embed(List.of("same words", "other", "same words", "same words"));

        assertThat(model.calls()).containsExactly(List.of("same words", "other"));
        assertThat(vectors).hasNumberOfRows(4);
        assertThat(vectors[0]).containsExactly(model.vector("same words"));
        assertThat(vectors[2]).containsExactly(vectors[0]);
        assertThat(vectors[3]).containsExactly(vectors[0]);
        assertThat(vectors[1]).containsExactly(model.vector("other"));
        assertThat(vectors[2]).isNotSameAs(vectors[0]);
        assertThat(cached.missCount()).isEqualTo(2);
    }

    @Test
    void embedQueries_sameTextAsADocument_isCachedApartAndAskedOfTheDelegateAsAQuery() {
        List<String> asked = new java.util.ArrayList<>();
        Embedder instructed = new Embedder() {
            @Override
            public float[][] embed(List<String> texts) {
                asked.add("doc:" + texts);
                return model.embed(texts);
            }

            @Override
            public float[][] embedQueries(List<String> queries) {
                asked.add("query:" + queries);
                return model.embed(queries.stream().map(q -> "instruction " + q).toList());
            }

            @Override
            public int dimension() {
                return 16;
            }

            @Override
            public String name() {
                return "instructed";
            }
        };
        CachingEmbedder cache = CachingEmbedder.of(instructed);

        float[] document = cache.embed(List.of("ferry times"))[0];
        float[] query = cache.embedQueries(List.of("ferry times"))[0];
        float[] queryAgain = cache.embedQueries(List.of("ferry times"))[0];

        assertThat(asked).containsExactly("doc:[ferry times]", "query:[ferry times]");
        assertThat(query).containsExactly(model.vector("instruction ferry times")).isNotEqualTo(document);
        assertThat(queryAgain).containsExactly(query);
    }

    @Test
    void embed_callerChangesReturnedVector_cacheAndOtherResultsUnchanged() {
        float[][] first = cached.embed(List.of("text", "text"));
        Arrays.fill(first[0], 42f);

        float[][] second = cached.embed(List.of("text"));

        assertThat(first[1]).containsExactly(model.vector("text"));
        assertThat(second[0]).containsExactly(model.vector("text"));
        second[0][0] = -1f;
        assertThat(cached.embed(List.of("text"))[0]).containsExactly(model.vector("text"));
    }

    @Test
    void embed_delegateReusesItsArray_cacheKeepsItsOwnCopy() {
        float[][] shared = {new float[16]};
        Embedder reusing = new Embedder() {
            @Override
            public float[][] embed(List<String> texts) {
                Arrays.fill(shared[0], texts.get(0).length());
                return shared;
            }

            @Override
            public int dimension() {
                return 16;
            }

            @Override
            public String name() {
                return "reusing";
            }
        };
        CachingEmbedder embedder = CachingEmbedder.of(reusing);

        embedder.embed(List.of("ab"));
        embedder.embed(List.of("abcd"));

        assertThat(embedder.embed(List.of("ab"))[0]).containsOnly(2f);
    }

    @Test
    void embed_delegateReturnsTooFewVectors_throwsRagExceptionNamingModelAndCachesNothing() {
        model.tamper(v -> Arrays.copyOf(v, v.length - 1));

        assertThatThrownBy(() -> cached.embed(List.of("a", "b")))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("'fake-bow'")
                .hasMessageContaining("1 vectors for 2 texts");
        assertThat(cached.estimatedSize()).isZero();
    }

    @Test
    void embed_delegateReturnsWrongDimension_throwsRagExceptionNamingModel() {
        model.tamper(v -> new float[][] {v[0], Arrays.copyOf(v[1], 8)});

        assertThatThrownBy(() -> cached.embed(List.of("a", "b")))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("'fake-bow'")
                .hasMessageContaining("dimension 8")
                .hasMessageContaining("declares dimension 16");
        assertThat(cached.estimatedSize()).isZero();
    }

    @Test
    void embed_delegateReturnsNaN_throwsRagExceptionNamingModel() {
        model.tamper(v -> {
            v[0][3] = Float.NaN;
            return v;
        });

        assertThatThrownBy(() -> cached.embed(List.of("a")))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("'fake-bow'")
                .hasMessageContaining("non-finite value (NaN) at position 3");
    }

    @Test
    void embed_delegateReturnsInfinity_throwsRagException() {
        model.tamper(v -> {
            v[1][0] = Float.NEGATIVE_INFINITY;
            return v;
        });

        assertThatThrownBy(() -> cached.embed(List.of("a", "b")))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("-Infinity")
                .hasMessageContaining("text 1");
    }

    @Test
    void embed_delegateReturnsZeroVectorOrNull_throwsRagException() {
        model.tamper(v -> new float[][] {new float[16]});
        assertThatThrownBy(() -> cached.embed(List.of("a")))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("all-zero");

        model.tamper(v -> null);
        assertThatThrownBy(() -> cached.embed(List.of("a")))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("no vectors");
    }

    @Test
    void embed_delegateThrows_propagatesAndCachesNothing() {
        model.failOn("boom");

        assertThatThrownBy(() -> cached.embed(List.of("fine", "boom")))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("unreachable");
        model.failOn("never-present");
        cached.embed(List.of("fine"));
        assertThat(model.calls()).hasSize(2);
    }

    @Test
    void embed_twoModelsWithTheirOwnCaches_neverShareVectors() {
        CachingEmbedder other = CachingEmbedder.of(new RecordingEmbedder("other-model", 16).tamper(v -> {
            v[0][0] = 7f;
            return v;
        }));

        float[] mine = cached.embed(List.of("same"))[0];
        float[] theirs = other.embed(List.of("same"))[0];

        assertThat(mine[0]).isEqualTo(0.5f);
        assertThat(theirs[0]).isEqualTo(7f);
        assertThat(other.name()).isEqualTo("other-model");
        assertThat(cached.dimension()).isEqualTo(16);
    }

    @Test
    void embed_emptyOrNullInput_rejectedAtOnce() {
        assertThatThrownBy(() -> cached.embed(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> cached.embed(Arrays.asList("a", null)))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("texts[1]");
        assertThat(model.calls()).isEmpty();
    }

    @Test
    void embed_moreTextsThanMaximumSize_cacheStaysBounded() {
        CachingEmbedder small = CachingEmbedder.builder().delegate(model).maximumSize(10).build();
        for (int i = 0; i < 100; i++) {
            small.embed(List.of("text " + i));
        }

        assertThat(small.estimatedSize()).isLessThanOrEqualTo(10);
    }

    @Test
    void builder_badSettings_rejected() {
        assertThatThrownBy(() -> CachingEmbedder.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("delegate(..)");
        assertThatThrownBy(() -> CachingEmbedder.builder().maximumSize(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(cached.toBuilder().build().delegate()).isSameAs(model);
    }

    @Test
    void embed_manyThreadsOverlappingTexts_everyAnswerCorrect() throws Exception {
        int threads = 8;
        int rounds = 200;
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            pool.add("word" + i + " shared text " + (i % 7));
        }
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                futures.add(executor.submit(() -> {
                    start.await();
                    int checked = 0;
                    for (int r = 0; r < rounds; r++) {
                        List<String> batch = new ArrayList<>();
                        for (int k = 0; k < 5; k++) {
                            batch.add(pool.get((seed * 31 + r * 7 + k * 13) % pool.size()));
                        }
                        float[][] vectors = cached.embed(batch);
                        for (int k = 0; k < batch.size(); k++) {
                            assertThat(vectors[k]).containsExactly(model.vector(batch.get(k)));
                            vectors[k][0] = -99f; // must never leak into another thread's answer
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> f : futures) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(threads * rounds * 5);
        } finally {
            executor.shutdownNow();
        }
        // Every text reached the model at least once and, races aside, rarely more than once per thread.
        assertThat(model.calls().stream().flatMap(List::stream).distinct()).hasSameSizeAs(pool);
        assertThat(model.textsEmbedded()).isLessThanOrEqualTo(pool.size() * threads);
        assertThat(cached.hitCount() + cached.missCount()).isGreaterThanOrEqualTo((long) threads * rounds * 5 / 2);
    }
}
