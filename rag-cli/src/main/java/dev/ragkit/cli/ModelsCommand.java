package dev.ragkit.cli;

import dev.ragkit.embedding.Embedders;
import dev.ragkit.onnx.InProcessEmbedderProvider;
import dev.ragkit.onnx.InProcessEmbedderProvider.Artifact;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ragkit models}: the in-process embedding models, which this ragkit carries ({@value Embedders#DEFAULT}) and
 * which are added to the models folder ({@code ragkit models add <name>}). Without a subcommand: the list.
 */
@Command(name = "models", mixinStandardHelpOptions = true,
        description = "List the in-process embedding models (ragkit models list) or add one (ragkit models add <name>).",
        subcommands = {ModelsCommand.ListModels.class, ModelsCommand.AddModel.class})
final class ModelsCommand extends CliCommand {

    ModelsCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() {
        return list(context);
    }

    /** Prints every in-process model: in this ragkit, added (with its file) or to add (with the command). */
    static int list(CliContext context) {
        Path folder = CliModels.folder(context);
        context.out.println("Models folder: " + folder + " (" + CliModels.RAGKIT_HOME + "/models, else ~/.ragkit/models)");
        for (Artifact artifact : InProcessEmbedderProvider.artifacts()) {
            CliModels.Where where = CliModels.where(context, artifact);
            String status;
            switch (where) {
                case BUILT_IN:
                    status = "in this ragkit" + (artifact.embedder().equals(Embedders.DEFAULT) ? " (the default)" : "");
                    break;
                case ADDED:
                    status = "added: " + folder.resolve(artifact.fileName());
                    break;
                default:
                    status = "not added; run: ragkit models add " + artifact.embedder();
                    break;
            }
            context.out.printf(Locale.ROOT, "%-20s %4d MB  %s%n", artifact.embedder(),
                    CliModels.megabytes(artifact.size()), status);
        }
        context.out.println("Ollama's models are named ollama:<model> and pulled with: ollama pull <model>");
        return RagkitCli.OK;
    }

    /** {@code ragkit models list}. */
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List the in-process embedding models: in this ragkit, added, or the command that adds them.")
    static final class ListModels extends CliCommand {
        ListModels(CliContext context) {
            super(context);
        }

        @Override
        public Integer call() {
            return list(context);
        }
    }

    /** {@code ragkit models add <name> [--from <jar>]}. */
    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Add an in-process embedding model to the models folder: its LangChain4j artifact, "
                    + "downloaded from Maven Central (or " + CliModels.RAGKIT_MAVEN_REPOSITORY + ") or copied with "
                    + "--from, kept only when its SHA-1 is the one RagKit was built with.")
    static final class AddModel extends CliCommand {
        @Parameters(index = "0", paramLabel = "<name>", description = "the model, e.g. bge-small-en-v1.5-q")
        String name = "";

        @Option(names = "--from", paramLabel = "<jar>", description = "copy this jar (the artifact as Maven Central "
                + "serves it) instead of downloading it")
        String from;

        AddModel(CliContext context) {
            super(context);
        }

        @Override
        public Integer call() {
            String wanted = requireText(name, "<name>");
            Artifact artifact = CliModels.inProcess(wanted).orElseThrow(() -> new UsageException(
                    wanted.startsWith("ollama:") ? "Ollama's models are not added here; pull them with: ollama pull "
                            + Terminal.line(wanted.substring("ollama:".length()))
                    : "no in-process model named '" + Terminal.line(wanted) + "'; known: " + String.join(", ",
                            names())));
            CliModels.Where where = CliModels.where(context, artifact);
            if (where == CliModels.Where.BUILT_IN) {
                context.out.println(wanted + " is in this ragkit already; nothing to add");
                return RagkitCli.OK;
            }
            Path target = CliModels.folder(context).resolve(artifact.fileName());
            if (where == CliModels.Where.ADDED && from == null) {
                if (CliModels.verified(target, artifact)) {
                    context.out.println(wanted + " is added already: " + target);
                    return RagkitCli.OK;
                }
                context.err.println("ragkit: " + target + " is not " + artifact.coordinates()
                        + " (another SHA-1); replacing it");
            }
            Path source = from == null ? null : context.resolve(requireText(from, "--from"));
            Path added = CliModels.add(context, artifact, source);
            context.out.println("Added " + wanted + ": " + added + " (" + artifact.coordinates() + ", SHA-1 "
                    + artifact.sha1() + "). Use it with --embedder " + wanted);
            return RagkitCli.OK;
        }

        private static List<String> names() {
            return InProcessEmbedderProvider.artifacts().stream().map(Artifact::embedder).toList();
        }
    }
}
