package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** What Maven Central and an adopter need: a licence file, and name, description, url, licences, SCM, developers. */
final class ProjectMetadataTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void repository_hasTheApacheLicenseText() throws Exception {
        String license = Files.readString(ROOT.resolve("LICENSE"));

        assertThat(license).contains("Apache License").contains("Version 2.0, January 2004")
                .contains("TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION");
    }

    @Test
    void everyPom_carriesTheMetadataCentralRequires() throws Exception {
        Element parent = pom(ROOT.resolve("pom.xml"));
        List<Path> poms = new ArrayList<>();
        NodeList modules = parent.getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            poms.add(ROOT.resolve(modules.item(i).getTextContent().strip()).resolve("pom.xml"));
        }
        assertThat(poms).hasSizeGreaterThan(8);
        for (Path pom : poms) {
            Element project = pom(pom);
            assertThat(child(project, "name")).as(pom + " name").isNotBlank();
            assertThat(child(project, "description")).as(pom + " description").isNotBlank();
            // url, licences, scm and developers: the module's own, or inherited from the parent
            Element source = project.getElementsByTagName("parent").getLength() > 0 ? parent : project;
            assertThat(child(source, "url")).as(pom + " url").startsWith("https://");
            assertThat(source.getElementsByTagName("license").getLength()).as(pom + " licenses").isPositive();
            assertThat(child(source, "scm")).as(pom + " scm").contains("scm:git:");
            assertThat(source.getElementsByTagName("developer").getLength()).as(pom + " developers").isPositive();
        }
    }

    private static Element pom(Path file) throws Exception {
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        return d.getDocumentElement();
    }

    /** The text of a direct child element, or an empty text. */
    private static String child(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent();
            }
        }
        return "";
    }
}
