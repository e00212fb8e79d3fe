import { Button, Group, Notification, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Draft } from '../../shared/schemas/drafts';
import { IconNotes } from '../components/icons';
import { useFormat, useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { getTransport } from '../transport/current';
import { forgetRememberedDraft, recoverPendingDraft, rememberedDraftId } from './draft-autosave';

const textAt = (data: Record<string, unknown>, group: string, field: string): string => {
  const value = (data[group] as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value.trim() : '';
};

/**
 * On start, offers to continue the order that was being entered when the window closed (or the power
 * went): its draft is in the database, the form opens on it with one click.
 */
export function ResumeDraftPrompt() {
  const t = useT();
  const { dateTime } = useFormat();
  const [draft, setDraft] = useState<Draft>();
  const opened = useOrderFormStore((s) => s.opened);
  const openDraft = useOrderFormStore((s) => s.openDraft);

  useEffect(() => {
    let current = true;
    void (async () => {
      await recoverPendingDraft();
      const id = rememberedDraftId();
      if (!id || !current) return;
      const result = await getTransport().invoke('drafts.get', { id });
      if (!current) return;
      if (result.ok) setDraft(result.value);
      else forgetRememberedDraft(); // submitted or deleted meanwhile
    })();
    return () => {
      current = false;
    };
  }, []);

  // Opening the form by any way answers the question.
  useEffect(() => {
    if (opened) setDraft(undefined);
  }, [opened]);

  if (!draft || opened) return null;
  const who = textAt(draft.data, 'recipient', 'contactName') || textAt(draft.data, 'order', 'clientNumber') || t('drafts.unnamed');
  return (
    <Notification
      icon={<IconNotes size={18} />}
      color="blue"
      title={t('entry.resume.title')}
      onClose={() => {
        forgetRememberedDraft();
        setDraft(undefined);
      }}
      closeButtonProps={{ 'aria-label': t('entry.resume.later') }}
      pos="fixed"
      bottom={16}
      left={16}
      w={380}
      style={{ zIndex: 300 }}
      withBorder
      role="dialog"
      aria-label={t('entry.resume.title')}
      data-testid="resume-draft"
    >
      <Text size="sm">{t('entry.resume.body', { who, time: dateTime(draft.updated) })}</Text>
      <Group gap="xs" mt="xs">
        <Button size="xs" onClick={() => void openDraft(draft.id)} data-testid="resume-draft-continue">
          {t('entry.resume.continue')}
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => {
            forgetRememberedDraft();
            setDraft(undefined);
          }}
        >
          {t('entry.resume.later')}
        </Button>
      </Group>
    </Notification>
  );
}
