package dev.ragkit;

import dev.ragkit.budget.BudgetLimits;
import dev.ragkit.error.ModelNotAllowedException;
import dev.ragkit.generation.KnownModels;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Which models a pipeline may use and what each can take: the allowlist, the check that the backend has a model
 * (remembered briefly), and each model's budget limits — configured, from the known-model table, or asked from the
 * backend once. Thread-safe.
 */
final class ModelCatalog {
    /** How long a successful availability check is trusted before the backend is asked again. */
    static final Duration AVAILABILITY_TTL = Duration.ofSeconds(30);

    private final LlmBackend backend;
    private final String defaultModel;
    private final Map<String, String> allowed;
    private final Map<String, ModelInfo> configured;
    private final Map<String, ModelInfo> learned = new ConcurrentHashMap<>();
    private final Map<String, Long> availableUntil = new ConcurrentHashMap<>();
    private final BudgetLimits template;
    private final LongSupplier nanoTime;

    ModelCatalog(LlmBackend backend, String defaultModel, @Nullable Collection<String> allowedModels,
            Map<String, ModelInfo> configured, BudgetLimits template, LongSupplier nanoTime) {
        this.backend = backend;
        this.defaultModel = defaultModel;
        Map<String, String> names = new HashMap<>();
        Collection<String> list = allowedModels != null ? allowedModels : defaultAllowlist(defaultModel);
        for (String m : list) {
            names.put(KnownModels.canonical(m), m);
        }
        this.allowed = Map.copyOf(names);
        this.configured = Map.copyOf(configured);
        this.template = template;
        this.nanoTime = nanoTime;
    }

    private static Set<String> defaultAllowlist(String model) {
        Set<String> names = new TreeSet<>(KnownModels.names());
        names.add(model);
        return names;
    }

    String defaultModel() {
        return defaultModel;
    }

    /**
     * The model a request uses: its own when allowed, else the default; and the backend must have it.
     *
     * @throws ModelNotAllowedException when the request names a model outside the allowlist
     * @throws dev.ragkit.error.ModelNotFoundException when the backend does not have the model
     */
    String resolve(RagRequest request) {
        String model = request.model() == null ? defaultModel : request.model();
        if (request.model() != null && !allowed.containsKey(KnownModels.canonical(model))) {
            throw new ModelNotAllowedException(model, new ArrayList<>(new TreeSet<>(allowed.values())));
        }
        requireAvailable(model);
        return model;
    }

    /** Asks the backend whether it has the model, unless it said yes within {@link #AVAILABILITY_TTL}. */
    private void requireAvailable(String model) {
        String key = KnownModels.canonical(model);
        long now = nanoTime.getAsLong();
        Long until = availableUntil.get(key);
        if (until != null && now - until < 0) {
            return;
        }
        backend.requireModel(model);     // throws when missing; a failure is not remembered
        availableUntil.put(key, now + AVAILABILITY_TTL.toNanos());
    }

    /** The budget's limits for a model: its window, and the response reserve capped by its limit. */
    BudgetLimits limitsFor(String model) {
        ModelInfo info = info(model);
        return template.withContextWindow(info.contextWindow())
                .withResponseReserve(Math.min(template.responseReserve(), info.maxResponseTokens()));
    }

    private ModelInfo info(String model) {
        String key = KnownModels.canonical(model);
        ModelInfo info = configured.get(key);
        if (info == null) {
            info = KnownModels.lookup(model).orElse(null);
        }
        if (info == null) {
            info = learned.get(key);
        }
        if (info == null) {
            // Not computeIfAbsent: the backend may call a server (or pull a model) for a long time.
            ModelInfo asked = backend.modelInfo(model);
            ModelInfo raced = learned.putIfAbsent(key, asked);
            info = raced != null ? raced : asked;
        }
        return info;
    }

    /** @return the allowed model names as given, sorted */
    List<String> allowedModels() {
        return new ArrayList<>(new TreeSet<>(allowed.values()));
    }
}
