package dev.seams.mutants;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import dev.seams.stand.JvmContainer;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * Removes the containers a mutant's build left behind (label {@value JvmContainer#LABEL}{@code =true}: with Ryuk
 * off, a build killed at its time bound cannot remove its own stand), so that the next mutant's stand starts on a
 * clean engine. Only the mutation tier calls it, between builds, when no stand of its own runs.
 */
final class StandLeftovers {

    private static final Logger LOG = LoggerFactory.getLogger(StandLeftovers.class);

    private StandLeftovers() {
    }

    static void remove() {
        DockerClient docker = DockerClientFactory.instance().client();
        List<Container> left = docker.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(JvmContainer.LABEL, "true")).exec();
        for (Container c : left) {
            LOG.warn("removing container {} {} left by the last build", c.getId().substring(0, 12), List.of(c.getNames()));
            docker.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
        }
    }
}
