package dev.seams.faults;

import com.sun.jdi.BooleanValue;
import com.sun.jdi.Bootstrap;
import com.sun.jdi.Field;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.Method;
import com.sun.jdi.ObjectReference;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.Value;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.IllegalConnectorArgumentsException;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Halts a JVM of the stand at a chosen method, through its JDWP agent ({@code stand/JvmContainer#withDebugAgent})
 * and the JDK's debugger interface (JDI): a breakpoint that suspends every thread of the process when one of them
 * enters the method. A fault then strikes at an exact point of the program rather than at a moment that may or may
 * not fall inside it (claim G14: between a transaction's acknowledged records and its commit, {@link TransactionKill}).
 *
 * <p>Each halt is either let go ({@link #resume()}) or ends with the process killed while halted; {@link #close()}
 * removes the breakpoints and detaches, which lets a live process go on.
 */
public final class JvmHalt implements AutoCloseable {

    /** How long attaching to the agent may take: the agent answers at once when the process runs. */
    private static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(10);

    private final VirtualMachine vm;
    private final String className;
    private final String methodName;
    private EventSet halted;
    private BreakpointEvent hit;

    private JvmHalt(VirtualMachine vm, String className, String methodName) {
        this.vm = vm;
        this.className = className;
        this.methodName = methodName;
    }

    /**
     * Attaches to the process's agent and sets the breakpoint (at once if the class is loaded, else when it is).
     *
     * @param agent      where the JDWP agent listens ({@code JvmContainer#debugAgent()})
     * @param className  the binary name of the class, e.g. {@code org.apache.kafka.common.requests.EndTxnRequest$Builder}
     * @param methodName the method; every overload the class itself declares with code gets the breakpoint (inherited and
     *                   bridge methods excepted)
     * @return the armed halt; close it
     * @throws UncheckedIOException  if the agent cannot be reached within 10 s
     * @throws IllegalStateException if the loaded class has no such method (the halt point moved with a new version
     *                               of the library: the fault names it instead of striking at random)
     */
    public static JvmHalt attach(InetSocketAddress agent, String className, String methodName) {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
                .filter(c -> c.transport().name().equals("dt_socket")).findFirst()
                .orElseThrow(() -> new IllegalStateException("this JDK's debugger interface has no socket transport"));
        Map<String, Connector.Argument> args = socket.defaultArguments();
        args.get("hostname").setValue(agent.getHostString());
        args.get("port").setValue(Integer.toString(agent.getPort()));
        args.get("timeout").setValue(Long.toString(ATTACH_TIMEOUT.toMillis()));
        VirtualMachine vm;
        try {
            vm = socket.attach(args);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot attach to the JDWP agent at " + agent, e);
        } catch (IllegalConnectorArgumentsException e) {
            throw new IllegalStateException("the socket connector refused " + args, e);
        }
        JvmHalt halt = new JvmHalt(vm, className, methodName);
        try {
            List<ReferenceType> loaded = vm.classesByName(className).stream().filter(ReferenceType::isPrepared).toList();
            if (loaded.isEmpty()) {
                ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
                prepare.addClassFilter(className);
                prepare.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
                prepare.enable();
            }
            loaded.forEach(halt::arm);
        } catch (RuntimeException e) {
            halt.close();
            throw e;
        }
        return halt;
    }

    private void arm(ReferenceType type) {
        List<Method> methods = type.methodsByName(methodName).stream()   // visible methods: inherited ones too
                .filter(m -> m.declaringType().equals(type) && !m.isBridge() && !m.isAbstract() && !m.isNative()).toList();
        if (methods.isEmpty()) {
            throw new IllegalStateException(className + " has no method " + methodName + " with code in the process: "
                    + "the halt point moved (another version of the library?)");
        }
        for (Method m : methods) {
            BreakpointRequest breakpoint = vm.eventRequestManager().createBreakpointRequest(m.location());
            breakpoint.setSuspendPolicy(EventRequest.SUSPEND_ALL);
            breakpoint.enable();
        }
    }

    /**
     * Waits until a thread enters the method; every thread of the process is then halted until {@link #resume()},
     * {@link #close()} or a kill.
     *
     * @param timeout how long to wait
     * @return true if the process is halted at the method, false if the timeout passed first
     * @throws IllegalStateException if the process ended meanwhile
     * @throws InterruptedException  if interrupted
     */
    public boolean awaitHalt(Duration timeout) throws InterruptedException {
        if (halted != null) {
            throw new IllegalStateException("already halted: resume() first");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
            if (left <= 0) {
                return false;
            }
            EventSet events = vm.eventQueue().remove(left);
            if (events == null) {
                return false;
            }
            for (Event event : events) {
                if (event instanceof BreakpointEvent breakpoint) {
                    halted = events;
                    hit = breakpoint;
                    return true;
                }
                if (event instanceof ClassPrepareEvent prepared) {
                    arm(prepared.referenceType());
                } else if (event instanceof VMDeathEvent || event instanceof VMDisconnectEvent) {
                    throw new IllegalStateException("the process ended while waiting for it to reach " + className + "#" + methodName);
                }
            }
            events.resume();
        }
    }

    /**
     * Reads a boolean the halted method's object holds, field by field: e.g. {@code ("data", "committed")} reads
     * {@code this.data.committed}.
     *
     * @throws IllegalStateException if the process is not halted, or a field is missing or not of the expected kind (the
     *                               halt point's class changed with a new version of the library)
     */
    public boolean booleanField(String... path) {
        if (hit == null) {
            throw new IllegalStateException("not halted");
        }
        Value value;
        try {
            value = hit.thread().frame(0).thisObject();
        } catch (IncompatibleThreadStateException e) {
            throw new IllegalStateException("the halted thread has no frame to read", e);
        }
        for (String name : path) {
            if (!(value instanceof ObjectReference object)) {
                throw new IllegalStateException("no object to read " + name + " of at " + className + "#" + methodName);
            }
            Field field = object.referenceType().fieldByName(name);
            if (field == null) {
                throw new IllegalStateException(object.referenceType().name() + " has no field " + name
                        + ": the halt point's class changed (another version of the library?)");
            }
            value = object.getValue(field);
        }
        if (!(value instanceof BooleanValue flag)) {
            throw new IllegalStateException(String.join(".", path) + " is no boolean at " + className + "#" + methodName + ": " + value);
        }
        return flag.value();
    }

    /** Lets the halted process go on (to the next time a thread enters the method). */
    public void resume() {
        if (halted != null) {
            halted.resume();
            halted = null;
            hit = null;
        }
    }

    /** Removes the breakpoints and detaches: a live process goes on, a killed one is simply gone. */
    @Override
    public void close() {
        try {
            vm.eventRequestManager().deleteAllBreakpoints();
        } catch (VMDisconnectedException gone) {
            return;   // the process was killed while halted: nothing left to detach from
        } finally {
            try {
                vm.dispose();
            } catch (VMDisconnectedException gone) {
                // the same
            }
        }
    }
}
