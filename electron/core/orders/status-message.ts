import { wireText, type MessageRef } from '../../../shared/messages';

/** A status description that is ours: the interface's English and the message as data. */
export const statusMessage = (ref: MessageRef) => ({ description: wireText(ref), descriptionMessage: ref });
