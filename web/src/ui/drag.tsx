// Cards a player moves between zones (rows, the hand, the discards) by click or drag, with a
// mouse, a pen or a finger: Chinese poker's split and open-face's placement.
import { useRef, useState } from "preact/hooks";
import { Card } from "./cards";

// Dragging a card with a mouse, a pen or a finger: a short press is a click; a drag drops the card
// on the zone under the pointer (an element with data-drop: a row, the hand, the discards).
export function useCardDrag(onDrop: (card: string, target: string) => void, onClick: (card: string) => void) {
  const drag = useRef<{ card: string; x: number; y: number; moved: boolean } | null>(null);
  const [ghost, setGhost] = useState<{ card: string; x: number; y: number } | null>(null);
  const handlers = (card: string) => ({
    onPointerDown: (e: PointerEvent) => {
      if (e.button !== 0) return;
      drag.current = { card, x: e.clientX, y: e.clientY, moved: false };
      (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    },
    onPointerMove: (e: PointerEvent) => {
      const d = drag.current;
      if (!d) return;
      if (!d.moved && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8) return;
      d.moved = true;
      setGhost({ card: d.card, x: e.clientX, y: e.clientY });
    },
    onPointerUp: (e: PointerEvent) => {
      const d = drag.current;
      drag.current = null;
      setGhost(null);
      if (!d) return;
      if (!d.moved) return onClick(d.card);
      const under = document.elementsFromPoint(e.clientX, e.clientY);
      for (const el of under) {
        const zone = (el as HTMLElement).closest?.("[data-drop]") as HTMLElement | null;
        if (zone) return onDrop(d.card, zone.dataset["drop"] ?? "");
      }
    },
    onPointerCancel: () => {
      drag.current = null;
      setGhost(null);
    },
  });
  return { handlers, ghost };
}

export function DragCard(props: { card: string; handlers: ReturnType<ReturnType<typeof useCardDrag>["handlers"]>; chosen?: boolean }) {
  return (
    <span class="drag-card" {...props.handlers} data-card={props.card}>
      <Card card={props.card} selected={props.chosen} />
    </span>
  );
}

