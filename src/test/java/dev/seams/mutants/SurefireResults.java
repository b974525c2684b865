package dev.seams.mutants;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The unit tests that failed in a build, read from surefire's XML reports ({@code TEST-*.xml}). */
final class SurefireResults {

    private SurefireResults() {
    }

    /**
     * @param dir {@code target/surefire-reports} of a build (missing: no unit test ran)
     * @return {@code SimpleClassName#method} of every test case with a failure or an error, in file order
     * @throws UncheckedIOException if a report cannot be read
     */
    static List<String> failures(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> failed = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path xml : files.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList()) {
                NodeList cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile())
                        .getElementsByTagName("testcase");
                for (int i = 0; i < cases.getLength(); i++) {
                    Element c = (Element) cases.item(i);
                    if (c.getElementsByTagName("failure").getLength() + c.getElementsByTagName("error").getLength() > 0) {
                        String cls = c.getAttribute("classname");
                        failed.add(cls.substring(cls.lastIndexOf('.') + 1) + "#" + c.getAttribute("name"));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot parse the surefire reports in " + dir, e);
        }
        return failed;
    }
}
