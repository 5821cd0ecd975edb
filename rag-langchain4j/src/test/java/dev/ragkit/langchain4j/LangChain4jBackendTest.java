package dev.ragkit.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessageType;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.langchain4j.model.output.TokenUsage;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.FinishReason;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.generation.Cancellable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

final class LangChain4jBackendTest {

    private static final ChatRequest REQUEST = new ChatRequest("llama3.2",
            List.of(ChatMessage.system("Answer from the sources."), ChatMessage.user("What is RagKit?"),
                    ChatMessage.assistant("A library."), ChatMessage.user("Which license?")),
            0.3, 256, 4096, 42L);

    /** A LangChain4j chat model answering with a scripted function; records every request it gets. */
    static final class FakeChatModel implements ChatModel {
        final List<dev.langchain4j.model.chat.request.ChatRequest> requests = new CopyOnWriteArrayList<>();
        private final Function<dev.langchain4j.model.chat.request.ChatRequest, ChatResponse> answer;

        FakeChatModel(Function<dev.langchain4j.model.chat.request.ChatRequest, ChatResponse> answer) {
            this.answer = answer;
        }

        static FakeChatModel answering(String text) {
            return new FakeChatModel(request -> ChatResponse.builder().aiMessage(AiMessage.from(text))
                    .modelName("fake-model-1").tokenUsage(new TokenUsage(17, 5))
                    .finishReason(dev.langchain4j.model.output.FinishReason.STOP).build());
        }

        @Override
        public ChatResponse doChat(dev.langchain4j.model.chat.request.ChatRequest request) {
            requests.add(request);
            return answer.apply(request);
        }
    }

    /**
     * A streaming model that sends scripted partial responses with a recording handle, then completes. With a gate,
     * it streams on its own thread and waits for the gate after the first partial response.
     */
    static final class FakeStreamingModel implements StreamingChatModel {
        final AtomicBoolean handleCancelled = new AtomicBoolean();
        final CountDownLatch firstSent = new CountDownLatch(1);
        volatile Thread thread;
        private final List<String> partials;
        private final boolean fail;
        private final CountDownLatch gate;

        FakeStreamingModel(List<String> partials, boolean fail, CountDownLatch gate) {
            this.partials = partials;
            this.fail = fail;
            this.gate = gate;
        }

        FakeStreamingModel(List<String> partials, boolean fail) {
            this(partials, fail, null);
        }

        @Override
        public void doChat(dev.langchain4j.model.chat.request.ChatRequest request, StreamingChatResponseHandler handler) {
            if (gate == null) {
                send(handler);
            } else {
                thread = new Thread(() -> send(handler));
                thread.start();
            }
        }

        private void send(StreamingChatResponseHandler handler) {
            StreamingHandle handle = new StreamingHandle() {
                @Override
                public void cancel() {
                    handleCancelled.set(true);
                }

                @Override
                public boolean isCancelled() {
                    return handleCancelled.get();
                }
            };
            for (int i = 0; i < partials.size(); i++) {
                if (partials.get(i).isEmpty()) {
                    handler.onPartialResponse(""); // LangChain4j's PartialResponse rejects empty text
                } else {
                    handler.onPartialResponse(new PartialResponse(partials.get(i)), new PartialResponseContext(handle));
                }
                if (i == 0) {
                    firstSent.countDown();
                    awaitGate();
                }
            }
            if (fail) {
                handler.onError(new TimeoutException("stream stalled"));
                return;
            }
            handler.onCompleteResponse(ChatResponse.builder().aiMessage(AiMessage.from(String.join("", partials)))
                    .tokenUsage(new TokenUsage(11, partials.size()))
                    .finishReason(dev.langchain4j.model.output.FinishReason.LENGTH).build());
        }

        private void awaitGate() {
            if (gate != null) {
                try {
                    gate.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Records what a stream delivered. */
    static final class Recorder implements StreamHandler {
        final List<String> events = new CopyOnWriteArrayList<>();
        final AtomicReference<ChatResult> result = new AtomicReference<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();

        @Override
        public void onToken(String token) {
            events.add("token:" + token);
        }

        @Override
        public void onComplete(ChatResult r) {
            events.add("complete");
            result.set(r);
        }

        @Override
        public void onError(Throwable e) {
            events.add("error");
            error.set(e);
        }
    }

    @Test
    void chat_messages_mappedInOrderWithTheirRoles() {
        FakeChatModel model = FakeChatModel.answering("MIT");

        LangChain4jBackend.of(model).chat(REQUEST);

        List<dev.langchain4j.data.message.ChatMessage> sent = model.requests.get(0).messages();
        assertThat(sent).extracting(dev.langchain4j.data.message.ChatMessage::type).containsExactly(
                ChatMessageType.SYSTEM, ChatMessageType.USER, ChatMessageType.AI, ChatMessageType.USER);
        assertThat(((SystemMessage) sent.get(0)).text()).isEqualTo("Answer from the sources.");
        assertThat(((UserMessage) sent.get(1)).singleText()).isEqualTo("What is RagKit?");
        assertThat(((AiMessage) sent.get(2)).text()).isEqualTo("A library.");
        assertThat(((UserMessage) sent.get(3)).singleText()).isEqualTo("Which license?");
    }

    @Test
    void chat_request_passesTemperatureAndMaxTokensButNotModelNameByDefault() {
        FakeChatModel model = FakeChatModel.answering("MIT");

        LangChain4jBackend.of(model).chat(REQUEST);

        dev.langchain4j.model.chat.request.ChatRequest sent = model.requests.get(0);
        assertThat(sent.temperature()).isEqualTo(0.3);
        assertThat(sent.maxOutputTokens()).isEqualTo(256);
        assertThat(sent.modelName()).isNull();
    }

    @Test
    void chat_passModelName_sendsTheRequestsModel() {
        FakeChatModel model = FakeChatModel.answering("MIT");

        LangChain4jBackend.builder().chatModel(model).passModelName(true).build().chat(REQUEST);

        assertThat(model.requests.get(0).modelName()).isEqualTo("llama3.2");
    }

    @Test
    void chat_response_mapsTextModelFinishReasonAndTokenCounts() {
        ChatResult result = LangChain4jBackend.of(FakeChatModel.answering("MIT")).chat(REQUEST);

        assertThat(result.text()).isEqualTo("MIT");
        assertThat(result.model()).isEqualTo("fake-model-1");
        assertThat(result.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(result.promptTokens()).isEqualTo(17);
        assertThat(result.completionTokens()).isEqualTo(5);
    }

    @Test
    void chat_responseWithoutUsageOrModelName_leavesCountsNullAndUsesRequestModel() {
        FakeChatModel model = new FakeChatModel(r -> ChatResponse.builder().aiMessage(AiMessage.from("x")).build());

        ChatResult result = LangChain4jBackend.of(model).chat(REQUEST);

        assertThat(result.model()).isEqualTo("llama3.2");
        assertThat(result.promptTokens()).isNull();
        assertThat(result.completionTokens()).isNull();
        assertThat(result.finishReason()).isEqualTo(FinishReason.OTHER);
    }

    @Test
    void chat_modelTimesOut_throwsLlmTimeoutException() {
        FakeChatModel model = new FakeChatModel(r -> {
            throw new TimeoutException("no answer in 30 s");
        });

        assertThatThrownBy(() -> LangChain4jBackend.of(model).chat(REQUEST))
                .isInstanceOf(LlmTimeoutException.class).hasMessageContaining("no answer in 30 s");
    }

    @Test
    void chat_unknownModel_throwsRagKitsModelNotFoundException() {
        FakeChatModel model = new FakeChatModel(r -> {
            throw new ModelNotFoundException("model 'gpt-9' does not exist");
        });

        assertThatThrownBy(() -> LangChain4jBackend.of(model).chat(REQUEST))
                .isInstanceOf(dev.ragkit.error.ModelNotFoundException.class).hasMessageContaining("gpt-9");
    }

    @Test
    void chat_blankMessage_throwsIllegalArgumentBeforeCallingTheModel() {
        FakeChatModel model = FakeChatModel.answering("x");
        ChatRequest blank = ChatRequest.of("llama3.2", List.of(ChatMessage.system(" "), ChatMessage.user("q")));

        assertThatThrownBy(() -> LangChain4jBackend.of(model).chat(blank))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("message 0 (system) is blank");
        assertThat(model.requests).isEmpty();
    }

    @Test
    void stream_withoutStreamingModel_runsChatOnExecutorAndDeliversOneToken() {
        List<Runnable> queued = new ArrayList<>();
        Executor executor = queued::add;
        LangChain4jBackend backend = LangChain4jBackend.builder().chatModel(FakeChatModel.answering("The answer."))
                .executor(executor).build();
        Recorder recorder = new Recorder();

        backend.stream(REQUEST, recorder);
        assertThat(recorder.events).as("nothing before the executor runs").isEmpty();
        queued.forEach(Runnable::run);

        assertThat(recorder.events).containsExactly("token:The answer.", "complete");
        assertThat(recorder.result.get().text()).isEqualTo("The answer.");
    }

    @Test
    void stream_withoutStreamingModelCancelledBeforeRun_neverCallsTheModel() {
        List<Runnable> queued = new ArrayList<>();
        FakeChatModel model = FakeChatModel.answering("x");
        LangChain4jBackend backend = LangChain4jBackend.builder().chatModel(model).executor(queued::add).build();
        Recorder recorder = new Recorder();

        Cancellable call = backend.stream(REQUEST, recorder);
        call.cancel();
        queued.forEach(Runnable::run);

        assertThat(call.isCancelled()).isTrue();
        assertThat(model.requests).isEmpty();
        assertThat(recorder.events).isEmpty();
    }

    @Test
    void stream_withStreamingModel_deliversPartialsThenResult() {
        FakeStreamingModel streaming = new FakeStreamingModel(List.of("Rag", "Kit", ""), false);
        LangChain4jBackend backend = LangChain4jBackend.of(FakeChatModel.answering("unused"), streaming);
        Recorder recorder = new Recorder();

        backend.stream(REQUEST, recorder);

        assertThat(recorder.events).containsExactly("token:Rag", "token:Kit", "complete");
        ChatResult result = recorder.result.get();
        assertThat(result.text()).isEqualTo("RagKit");
        assertThat(result.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(result.promptTokens()).isEqualTo(11);
        assertThat(result.duration()).isGreaterThanOrEqualTo(Duration.ZERO);
    }

    @Test
    void stream_cancelledAfterFirstToken_stopsDeliveryAndCancelsLangChain4jHandle() throws InterruptedException {
        CountDownLatch gate = new CountDownLatch(1);
        FakeStreamingModel streaming = new FakeStreamingModel(List.of("one", "two", "three"), false, gate);
        LangChain4jBackend backend = LangChain4jBackend.of(FakeChatModel.answering("unused"), streaming);
        Recorder recorder = new Recorder();

        Cancellable call = backend.stream(REQUEST, recorder);
        assertThat(streaming.firstSent.await(10, TimeUnit.SECONDS)).isTrue();
        call.cancel();
        gate.countDown();
        streaming.thread.join(10_000);

        assertThat(recorder.events).containsExactly("token:one");
        assertThat(streaming.handleCancelled).isTrue();
        assertThat(call.isCancelled()).isTrue();
    }

    @Test
    void stream_modelFails_deliversTranslatedErrorAfterTokens() {
        FakeStreamingModel streaming = new FakeStreamingModel(List.of("partial"), true);
        LangChain4jBackend backend = LangChain4jBackend.of(FakeChatModel.answering("unused"), streaming);
        Recorder recorder = new Recorder();

        backend.stream(REQUEST, recorder);

        assertThat(recorder.events).containsExactly("token:partial", "error");
        assertThat(recorder.error.get()).isInstanceOf(LlmTimeoutException.class).hasMessageContaining("stream stalled");
    }

    @Test
    void modelInfo_knownConfiguredAndUnknownModels() {
        LangChain4jBackend backend = LangChain4jBackend.builder().chatModel(FakeChatModel.answering("x"))
                .modelInfo(new ModelInfo("gpt-4o-mini", 128_000, 16_384)).build();

        assertThat(backend.modelInfo("llama3.2:latest").contextWindow()).isEqualTo(8192);
        assertThat(backend.modelInfo("GPT-4o-mini").contextWindow()).isEqualTo(128_000);
        assertThatThrownBy(() -> backend.modelInfo("claude-x"))
                .isInstanceOf(dev.ragkit.error.ModelNotFoundException.class)
                .hasMessageContaining("claude-x").hasMessageContaining("modelInfo(new ModelInfo(");
    }

    @Test
    void health_withoutCheck_callsNothingAndSaysTheModelIsNotConfirmed() {
        FakeChatModel model = FakeChatModel.answering("x");

        HealthStatus status = LangChain4jBackend.of(model).health("llama3.2");

        assertThat(model.requests).isEmpty();
        assertThat(status.reachable()).isTrue();
        assertThat(status.modelAvailable()).isFalse();
        assertThat(status.detail()).contains("not checked").contains("pingHealthCheck()");
    }

    @Test
    void health_pingCheck_sendsOneTokenRequestAndReportsHealthy() {
        FakeChatModel model = FakeChatModel.answering("pong");

        HealthStatus status = LangChain4jBackend.builder().chatModel(model).pingHealthCheck().build().health("m");

        assertThat(status.healthy()).isTrue();
        assertThat(model.requests).singleElement().satisfies(r -> assertThat(r.maxOutputTokens()).isEqualTo(1));
    }

    @Test
    void health_pingCheckAgainstDownServer_reportsUnreachableWithoutThrowing() {
        FakeChatModel model = new FakeChatModel(r -> {
            throw new dev.langchain4j.exception.InternalServerException("connection refused");
        });

        HealthStatus status = LangChain4jBackend.builder().chatModel(model).pingHealthCheck().build().health("m");

        assertThat(status.reachable()).isFalse();
        assertThat(status.detail()).contains("connection refused");
    }

    @Test
    void health_customCheckThrowing_reportsUnhealthy() {
        LangChain4jBackend backend = LangChain4jBackend.builder().chatModel(FakeChatModel.answering("x"))
                .healthCheck(model -> {
                    throw new LlmUnavailableException("gateway down");
                }).build();

        assertThat(backend.health("m").healthy()).isFalse();
        assertThat(backend.health("m").detail()).contains("gateway down");
    }

    @Test
    void toBuilder_pingCheckWithNewChatModel_pingsTheNewModel() {
        FakeChatModel oldModel = FakeChatModel.answering("old");
        FakeChatModel newModel = FakeChatModel.answering("new");
        LangChain4jBackend first = LangChain4jBackend.builder().chatModel(oldModel).pingHealthCheck().build();

        HealthStatus status = first.toBuilder().chatModel(newModel).build().health("m");

        assertThat(status.healthy()).isTrue();
        assertThat(newModel.requests).hasSize(1);
        assertThat(oldModel.requests).isEmpty();
    }

    @Test
    void toBuilder_pingCheckChosenAgain_accepted() {
        FakeChatModel model = FakeChatModel.answering("pong");
        LangChain4jBackend first = LangChain4jBackend.builder().chatModel(model).pingHealthCheck().build();

        LangChain4jBackend second = first.toBuilder().pingHealthCheck().build();

        assertThat(second.health("m").healthy()).isTrue();
        assertThat(model.requests).hasSize(1);
        assertThatThrownBy(() -> first.toBuilder().healthCheck(m -> null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("pingHealthCheck()");
    }

    @Test
    void toBuilder_customCheck_keptAndStillExclusiveWithPing() {
        HealthStatus custom = new HealthStatus(true, true, Duration.ZERO, null, "custom");
        FakeChatModel model = FakeChatModel.answering("x");
        LangChain4jBackend first = LangChain4jBackend.builder().chatModel(model).healthCheck(m -> custom).build();

        LangChain4jBackend second = first.toBuilder().chatModel(FakeChatModel.answering("y")).build();

        assertThat(second.health("m")).isSameAs(custom);
        assertThatThrownBy(() -> first.toBuilder().pingHealthCheck())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("healthCheck(..)");
    }

    @Test
    void builder_twoHealthChecksOrNoChatModel_rejected() {
        assertThatThrownBy(() -> LangChain4jBackend.builder().pingHealthCheck().healthCheck(m -> null))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> LangChain4jBackend.builder().build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("chatModel(..)");
    }
}
