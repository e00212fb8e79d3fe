import { Checkbox, Grid, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import type { ProviderService } from '../../shared/schemas/lists';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useField } from './field-context';
import { FormSection } from './form-section';
import { extraParamPath } from './form-values';
import { useDebouncedCommand } from './use-debounced-command';

/** The chosen service's additional services (lists.services), each sent as extraParams.{extraParamName}. */
export function ExtraServices() {
  const t = useT();
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const setExtraTypes = useOrderFormStore((s) => s.setExtraTypes);
  const state = useDebouncedCommand('lists.services', providerKey ? { providerKey } : undefined, 0);
  const services = useMemo(() => ('value' in state && state.value && providerKey ? state.value : []), [state, providerKey]);
  // Validation and the payload need each service's value type (a number is sent as a number).
  useEffect(() => {
    setExtraTypes(Object.fromEntries(services.map((s) => [s.extraParamName, s.valueType])));
  }, [services, setExtraTypes]);
  if (services.length === 0) return null;
  return (
    <FormSection legend={t('field.extraParams')} testId="extra-services">
      <Grid gap="sm">
        {services.map((service) => (
          <Grid.Col key={service.extraParamName} span={{ base: 12, xs: service.valueType === 'bool' ? 6 : 6 }}>
            <ServiceInput service={service} />
          </Grid.Col>
        ))}
      </Grid>
      {state.status === 'error' && (
        <Text size="xs" c="orange">
          {t('entry.extra.failed')}
        </Text>
      )}
    </FormSection>
  );
}

function ServiceInput({ service }: { service: ProviderService }) {
  const path = extraParamPath(service.extraParamName);
  const value = useOrderFormStore((s) => s.values.extraParams[service.extraParamName]);
  const setExtraParam = useOrderFormStore((s) => s.setExtraParam);
  const binding = useField(path);
  if (service.valueType === 'bool') {
    return (
      <Checkbox
        id={binding.id}
        label={service.name}
        description={service.description || undefined}
        checked={value === true}
        onChange={(e) => setExtraParam(service.extraParamName, e.currentTarget.checked)}
        error={binding.error}
        data-path={path}
        mt={4}
      />
    );
  }
  const numeric = service.valueType === 'int' || service.valueType === 'float';
  return (
    <TextInput
      label={service.name}
      description={service.description || undefined}
      {...binding}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => setExtraParam(service.extraParamName, e.currentTarget.value)}
      inputMode={numeric ? (service.valueType === 'int' ? 'numeric' : 'decimal') : undefined}
      autoComplete="off"
    />
  );
}
